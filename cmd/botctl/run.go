package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/cmdmain"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// subcommand is one line of botctl's usage.
type subcommand struct{ name, args, about string }

// subcommands lists botctl's sub-commands in the order its usage shows them;
// commands maps each name to its function.
var subcommands = []subcommand{
	{"webhook set", "<url>", "point Telegram at <url> (https), with TELEGRAM_WEBHOOK_SECRET"},
	{"webhook delete", "[-drop-pending]", "remove the webhook: the bot is polled again"},
	{"webhook info", "", "the webhook's url, pending_update_count and last error"},
	{"commands sync", "", "publish the enabled modules' command menu (setMyCommands)"},
	{"menu set", "[<url>]", "make every private chat's menu button open the Mini App at <url> or APP_URL (setChatMenuButton)"},
	{"cron run", "<name> [-url <deployment base URL>] [-scheduled <RFC 3339 slot>]", "POST <base>/cron/<name> with CRON_SHARED_SECRET, for the slot -scheduled names (a slot a pause or an outage held, within a day) or now; fails unless the job ran, was skipped or is disabled"},
	{"cron status", "[-url <deployment base URL>]", "each job's last success and failure, attempts, next fire, and the store read: from the configured store, or from the running bot (-url; BOT_URL when the store is locked or not configured)"},
	{"table create", "<name>", "create a DynamoDB table (local development and tests only)"},
	{"backup create", "-o <file>", "a snapshot of the configured store into one archive (the file store only while the bot is stopped: docs/backup.md)"},
	{"backup restore", "<file> [-replace] [-dry-run] [-other-bot] [-parked] [-tmp <dir>]", "check the archive whole, restore it into the configured store (refused unless empty, or -replace; another bot's unless -other-bot; parked updates left out unless -parked) and verify every item"},
	{"store scan", "", "list the stored items that cannot be read: those the bot reported, and those whose bytes are broken (docs/backup.md)"},
	{"store show", "<module> <key>", "one stored item as it is held: its size, fingerprint, why it does not decode, its bytes quoted"},
	{"store quarantine", "<module> <key>", "move a damaged item aside into the quarantine namespace (nothing lost): its users are served afresh"},
	{"store delete", "<module> <key>", "delete a stored item (a damaged one, once looked at)"},
}

var commands = map[string]func(ctx context.Context, e env) error{
	"webhook set":      webhookSet,
	"webhook delete":   webhookDelete,
	"webhook info":     webhookInfo,
	"commands sync":    commandsSync,
	"menu set":         menuSet,
	"cron run":         cronRun,
	"cron status":      cronStatus,
	"table create":     tableCreate,
	"backup create":    backupCreate,
	"backup restore":   backupRestore,
	"store scan":       storeScan,
	"store show":       storeShow,
	"store quarantine": storeQuarantine,
	"store delete":     storeDelete,
}

// usage is botctl's whole usage.
var usage = func() string {
	var b strings.Builder
	b.WriteString("usage:")
	for _, c := range subcommands {
		fmt.Fprintf(&b, "\n  %s", synopsis(c.name))
	}
	b.WriteString("\nbotctl <command> -h prints a command's usage")
	return b.String()
}()

var errUsage = errors.New(usage)

// env is what every sub-command gets: its arguments (after the two words
// naming it), the bot's environment and where to print.
type env struct {
	name           string
	args           []string
	getenv         func(string) string
	stdout, stderr io.Writer
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) >= 2 {
		if cmd, ok := commands[args[0]+" "+args[1]]; ok {
			return cmd(ctx, env{name: args[0] + " " + args[1], args: args[2:], getenv: getenv, stdout: stdout, stderr: stderr})
		}
	}
	if cmdmain.WantsHelp(args) || len(args) == 1 && args[0] == "help" {
		fmt.Fprintln(stdout, usage)
		return flag.ErrHelp
	}
	return errUsage
}

// flags is the sub-command's flag set; its errors print its usage on stderr.
func (e env) flags() *flag.FlagSet {
	fs := flag.NewFlagSet(e.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n%s\n", synopsis(e.name), about(e.name))
		fs.PrintDefaults()
	}
	return fs
}

// synopsis is a sub-command's usage line, about what it does.
func synopsis(name string) string {
	for _, c := range subcommands {
		if c.name == name {
			return strings.TrimSpace("botctl " + c.name + " " + c.args)
		}
	}
	return "botctl " + name
}

func about(name string) string {
	for _, c := range subcommands {
		if c.name == name {
			return c.about
		}
	}
	return ""
}

// parse reads the sub-command's flags and returns its positional arguments,
// which may stand before, between or after the flags. -h or --help anywhere
// prints the usage on stdout and returns flag.ErrHelp: every sub-command
// parses first, so asking for help touches nothing.
func (e env) parse(fs *flag.FlagSet) ([]string, error) {
	if cmdmain.WantsHelp(e.args) {
		fs.SetOutput(e.stdout)
		fs.Usage()
		return nil, flag.ErrHelp
	}
	var pos []string
	rest := e.args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if n := len(rest) - fs.NArg(); n > 0 && rest[n-1] == "--" {
			return append(pos, fs.Args()...), nil // all after "--" is positional
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

// positional parses the flags and wants exactly n positional arguments.
func (e env) positional(fs *flag.FlagSet, n int) ([]string, error) {
	pos, err := e.parse(fs)
	if err == nil && len(pos) != n {
		err = errors.New("usage: " + synopsis(e.name))
	}
	return pos, err
}

// connect loads the configuration (the token, and what the command needs on
// top) and builds the Telegram client.
func (e env) connect(ctx context.Context, require ...string) (*config.Config, *telegram.Client, error) {
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load, append([]string{"TELEGRAM_BOT_TOKEN"}, require...)...)
	if err != nil {
		return nil, nil, err
	}
	c, err := wiring.NewClient(cfg, slog.Default())
	return cfg, c, err
}
