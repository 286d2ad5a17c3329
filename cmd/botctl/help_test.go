package main

import (
	"bytes"
	"errors"
	"flag"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/cmdmain"
)

// runnable are arguments with which each sub-command would act; the help
// test adds -h or --help to them.
var runnable = map[string][]string{
	"webhook set":      {"https://x.example/webhook"},
	"webhook delete":   {"-drop-pending"},
	"webhook info":     nil,
	"commands sync":    nil,
	"menu set":         {"https://x.example/app/"},
	"cron run":         {"lolschedule_daily_push"},
	"cron status":      nil,
	"table create":     {"miti99bot"},
	"store scan":       nil,
	"store show":       {"coin", "user:3"},
	"store quarantine": {"coin", "user:3"},
	"store delete":     {"coin", "user:3"},
}

// sandboxAnswer is the 400 every sandboxed request gets.
const sandboxAnswer = `{"ok":false,"error_code":400,"description":"recorded","__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"recorded"}`

// sandbox points everything botctl can reach (the Bot API, the deployment,
// DynamoDB, SSM) at one server that counts requests and refuses them with a
// 400 neither the Telegram client nor the AWS SDK retries.
func sandbox(t *testing.T) (map[string]string, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(sandboxAnswer))), 10)) // the SDK checks it
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, sandboxAnswer)
	}))
	t.Cleanup(srv.Close)
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": srv.URL, "AWS_ENDPOINT_URL_DYNAMODB": srv.URL, "AWS_REGION": "us-east-1",
		"AWS_ACCESS_KEY_ID": "sandbox", "AWS_SECRET_ACCESS_KEY": "sandbox", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
	} {
		t.Setenv(k, v) // the SDK reads the process's environment
	}
	return map[string]string{
		"TELEGRAM_BOT_TOKEN": "123:sandbox", "TELEGRAM_API_URL": srv.URL, "TELEGRAM_WEBHOOK_SECRET": "wh-secret",
		"CRON_SHARED_SECRET": "cron-secret", "BOT_URL": srv.URL, "DYNAMODB_TABLE": "miti99bot",
	}, &calls
}

func TestEverySubcommandListedHereIsTested(t *testing.T) {
	for _, c := range subcommands {
		if _, ok := runnable[c.name]; !ok || commands[c.name] == nil {
			t.Errorf("%q: in the usage, but not in commands or in this test's runnable", c.name)
		}
	}
	if len(runnable) != len(commands) || len(subcommands) != len(commands) {
		t.Errorf("%d commands, %d in the usage, %d tested", len(commands), len(subcommands), len(runnable))
	}
}

// The sandbox is seen: without -h each sub-command reaches it. Otherwise the
// help test below would pass for a command that acts somewhere unwatched.
func TestSandboxSeesEverySubcommandAct(t *testing.T) {
	env, calls := sandbox(t)
	for name, args := range runnable {
		t.Run(name, func(t *testing.T) {
			before := calls.Load()
			_, err := botctl(t, env, append(strings.Fields(name), args...)...)
			if err == nil || calls.Load() == before {
				t.Fatalf("= %v after %d requests; want a refused request to the sandbox", err, calls.Load()-before)
			}
		})
	}
}

func TestEverySubcommandAnswersHelpAndTouchesNothing(t *testing.T) {
	env, calls := sandbox(t)
	for name, args := range runnable {
		for _, h := range []string{"-h", "--help", "-help"} {
			placements := [][]string{{h}}
			if len(args) > 0 {
				placements = append(placements, append(slices.Clone(args), h), append([]string{h}, args...))
			}
			for _, placed := range placements {
				argv := append(strings.Fields(name), placed...)
				t.Run(strings.Join(argv, " "), func(t *testing.T) {
					var out, errOut bytes.Buffer
					err := run(t.Context(), argv, func(k string) string { return env[k] }, &out, &errOut)
					if !errors.Is(err, flag.ErrHelp) || cmdmain.Report(io.Discard, "botctl", err) != 0 {
						t.Fatalf("= %v; want flag.ErrHelp, exit code 0", err)
					}
					if !strings.HasPrefix(out.String(), "usage: botctl "+name) || errOut.Len() != 0 {
						t.Fatalf("stdout %q, stderr %q; want the usage on stdout", out.String(), errOut.String())
					}
					if n := calls.Load(); n != 0 {
						t.Fatalf("asking for help made %d requests", n)
					}
				})
			}
		}
	}
}

func TestBotctlAnswersHelpWithTheWholeUsage(t *testing.T) {
	for _, argv := range [][]string{{"-h"}, {"--help"}, {"help"}, {"webhook", "-h"}, {"cron", "--help"}} {
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			var out bytes.Buffer
			err := run(t.Context(), argv, func(string) string { return "" }, &out, io.Discard)
			if !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("= %v; want flag.ErrHelp", err)
			}
			for _, c := range subcommands {
				if !strings.Contains(out.String(), "botctl "+c.name) {
					t.Fatalf("usage lacks %q:\n%s", c.name, out.String())
				}
			}
		})
	}
}

func TestUnknownFlagsAndArgumentCountsAreUsageErrors(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"table", "create"}, "usage: botctl table create <name>"},
		{[]string{"table", "create", "a", "b"}, "usage: botctl table create <name>"},
		{[]string{"cron", "run"}, "usage: botctl cron run <name>"},
		{[]string{"webhook", "info", "extra"}, "usage: botctl webhook info"},
		{[]string{"webhook", "delete", "-drop"}, "flag provided but not defined: -drop"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			if _, err := botctl(t, nil, tt.argv...); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("= %v; want %q", err, tt.want)
			}
		})
	}
}
