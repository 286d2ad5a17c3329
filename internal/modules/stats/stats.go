// Package stats counts every command the bot handles, per command, per user
// and per (command, user), and shows the numbers to the owner and admins.
// A user's counts are one document (tally.go), so counting costs one write.
package stats

import (
	"cmp"
	"context"
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Name is the module's name in MODULES.
const Name = "stats"

// texts are the module's words (see app.Words).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// countBudget bounds the counting of one command. The hook runs after the
// command replied, so the user never waits for it; it runs synchronously
// rather than in the background because Lambda freezes the process as soon
// as the update is answered, which would strand buffered counts.
const countBudget = 2 * time.Second

type module struct {
	t     *tallies
	known func(command string) bool
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	m := &module{t: newTallies(d.Store), known: d.Registry.HasCommand}
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{{
			Name: "stats", Visibility: app.Protected,
			Description: "Command usage: /stats, /stats users, /stats user <name|id>, /stats cmd <name>",
			Handler:     m.cmdStats,
		}},
		OnCommand: m.count,
	}, nil
}

// count records one command, once per update: one write of the user's
// tally.
func (m *module) count(ctx context.Context, ev app.CommandEvent) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), countBudget)
	defer cancel()
	return m.t.add(ctx, strconv.FormatInt(ev.UserID, 10), ev.Username, ev.Command, ev.Update)
}

type entry struct {
	name  string
	count int64
}

func ranked(sums map[string]int64) []entry {
	out := make([]entry, 0, len(sums))
	for k, v := range sums {
		out = append(out, entry{k, v})
	}
	slices.SortFunc(out, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(a.name, b.name))
	})
	return out
}

func (m *module) cmdStats(ctx context.Context, r *app.Request) error {
	fields := strings.Fields(r.Args)
	var text string
	var err error
	switch {
	case len(fields) == 0:
		text, err = m.overview(ctx, r.Words)
	case fields[0] == "users" && len(fields) == 1:
		text, err = m.users(ctx, r.Words, 30)
	case fields[0] == "user" && len(fields) == 2:
		text, err = m.user(ctx, r.Words, fields[1])
	case fields[0] == "cmd" && len(fields) == 2:
		text, err = m.command(ctx, r.Words, strings.ToLower(strings.TrimPrefix(fields[1], "/")))
	default:
		text = r.T("usage")
	}
	if err != nil {
		return err
	}
	_, err = r.Reply(ctx, text)
	return err
}

func (u usage) label(id string) string {
	if name := u.names[id]; name != "" {
		return "@" + name + " (" + id + ")"
	}
	return id
}

// perCommand sums the uses of each command over users.
func (u usage) perCommand() map[string]int64 {
	return u.sum(func(_, cmd string) string { return cmd })
}

// perUser sums each user's uses over commands.
func (u usage) perUser() map[string]int64 {
	return u.sum(func(user, _ string) string { return user })
}

// sum adds up the uses under the key each (user, command) count goes to.
func (u usage) sum(key func(user, cmd string) string) map[string]int64 {
	out := map[string]int64{}
	for user, cmds := range u.counts {
		for c, n := range cmds {
			out[key(user, c)] += n
		}
	}
	return out
}

func (m *module) overview(ctx context.Context, w app.Words) (string, error) {
	u, err := m.t.load(ctx)
	if err != nil {
		return "", err
	}
	cmds := u.perCommand()
	if len(cmds) == 0 {
		return w.T("none_counted"), nil
	}
	var b strings.Builder
	b.WriteString(w.T("top_commands") + "\n")
	for i, e := range ranked(cmds)[:min(10, len(cmds))] {
		fmt.Fprintf(&b, "%d. /%s: %d\n", i+1, e.name, e.count)
	}
	return b.String() + "\n" + u.users(w, 10), nil
}

func (m *module) users(ctx context.Context, w app.Words, limit int) (string, error) {
	u, err := m.t.load(ctx)
	if err != nil {
		return "", err
	}
	return u.users(w, limit), nil
}

func (u usage) users(w app.Words, limit int) string {
	sums := u.perUser()
	var b strings.Builder
	b.WriteString(w.T("top_users") + "\n")
	for i, e := range ranked(sums)[:min(limit, len(sums))] {
		fmt.Fprintf(&b, "%d. %s: %d\n", i+1, u.label(e.name), e.count)
	}
	return strings.TrimRight(b.String(), "\n")
}

// user shows one user's commands; who is an id or a username (with or
// without @).
func (m *module) user(ctx context.Context, w app.Words, who string) (string, error) {
	u, err := m.t.load(ctx)
	if err != nil {
		return "", err
	}
	id := u.resolve(strings.TrimPrefix(who, "@"))
	if id == "" {
		return w.T("no_such_user", app.Args{"Who": app.Quote(who)}), nil
	}
	mine := u.counts[id]
	var total int64
	for _, n := range mine {
		total += n
	}
	if total == 0 {
		return w.T("none_for_user", app.Args{"User": u.label(id)}), nil
	}
	var b strings.Builder
	b.WriteString(w.T("user_total", app.Args{"User": u.label(id), "Total": strconv.FormatInt(total, 10)}) + "\n")
	for _, e := range ranked(mine) {
		fmt.Fprintf(&b, "/%s: %d\n", e.name, e.count)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func (u usage) resolve(who string) string {
	if _, err := strconv.ParseInt(who, 10, 64); err == nil {
		return who
	}
	for id, name := range u.names {
		if strings.EqualFold(name, who) {
			return id
		}
	}
	return ""
}

func (m *module) command(ctx context.Context, w app.Words, name string) (string, error) {
	if !m.known(name) {
		return w.T("no_such_command", app.Args{"Name": app.Quote(name)}), nil
	}
	u, err := m.t.load(ctx)
	if err != nil {
		return "", err
	}
	var total int64
	byUser := map[string]int64{}
	for user, cmds := range u.counts {
		if n := cmds[name]; n > 0 {
			byUser[user] = n
			total += n
		}
	}
	if total == 0 {
		return w.T("unused", app.Args{"Name": name}), nil
	}
	var b strings.Builder
	b.WriteString(w.T("command_total", app.Args{"Name": name, "Total": strconv.FormatInt(total, 10)}) + "\n")
	for i, e := range ranked(byUser)[:min(10, len(byUser))] {
		fmt.Fprintf(&b, "%d. %s: %d\n", i+1, u.label(e.name), e.count)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}
