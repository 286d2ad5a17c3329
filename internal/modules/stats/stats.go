// Package stats counts every command the bot handles, per command, per user
// and per (command, user), and shows the numbers to the owner and admins.
package stats

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "stats"

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// countBudget bounds the counting of one command. The hook runs after the
// command replied, so the user never waits for it; it runs synchronously
// rather than in the background because Lambda freezes the process as soon
// as the update is answered, which would strand buffered counts.
const countBudget = 2 * time.Second

type module struct {
	c     counters
	store storage.KVStore
	known func(command string) bool
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	m := &module{c: counters{store: d.Store}, store: d.Store, known: d.Registry.HasCommand}
	return &app.Module{
		Name: Name,
		Commands: []app.Command{{
			Name: "stats", Visibility: app.Protected,
			Description: "Command usage: /stats, /stats users, /stats user <name|id>, /stats cmd <name>",
			Handler:     m.cmdStats,
		}},
		OnCommand: m.count,
	}, nil
}

// count records one command. Its writes are independent, so they go out
// at once: with a store a few milliseconds away the hook costs two round
// trips of latency instead of seven.
func (m *module) count(ctx context.Context, ev app.CommandEvent) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), countBudget)
	defer cancel()
	user := strconv.FormatInt(ev.UserID, 10)
	counters := []string{"cmd." + ev.Command, "user." + user, "cu." + ev.Command + "." + user}
	errs := make([]error, len(counters)+1)
	var wg sync.WaitGroup
	for i, counter := range counters {
		wg.Go(func() { errs[i] = m.c.add(ctx, counter) })
	}
	if ev.Username != "" {
		wg.Go(func() { errs[len(counters)] = m.rememberName(ctx, user, ev.Username) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// rememberName keeps a user's latest @username, writing only on a change.
func (m *module) rememberName(ctx context.Context, user, username string) error {
	key := "name." + user
	if cur, err := m.store.Get(ctx, key); err == nil && string(cur) == username {
		return nil
	}
	return m.store.Put(ctx, key, []byte(username))
}

type entry struct {
	name  string
	count int64
}

func ranked(sums map[string]int64, trim string) []entry {
	out := make([]entry, 0, len(sums))
	for k, v := range sums {
		out = append(out, entry{strings.TrimPrefix(k, trim), v})
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
		text, err = m.overview(ctx)
	case fields[0] == "users" && len(fields) == 1:
		text, err = m.users(ctx, 30)
	case fields[0] == "user" && len(fields) == 2:
		text, err = m.user(ctx, fields[1])
	case fields[0] == "cmd" && len(fields) == 2:
		text, err = m.command(ctx, strings.ToLower(strings.TrimPrefix(fields[1], "/")))
	default:
		text = "Usage: /stats, /stats users, /stats user <name|id>, /stats cmd <name>"
	}
	if err != nil {
		return err
	}
	return r.Reply(ctx, text)
}

func (m *module) label(ctx context.Context, id string) string {
	if name, err := m.store.Get(ctx, "name."+id); err == nil && len(name) > 0 {
		return "@" + string(name) + " (" + id + ")"
	}
	return id
}

func (m *module) overview(ctx context.Context) (string, error) {
	cmds, err := m.c.sums(ctx, "cmd.")
	if err != nil {
		return "", err
	}
	if len(cmds) == 0 {
		return "No commands counted yet.", nil
	}
	var b strings.Builder
	b.WriteString("Top commands:\n")
	for i, e := range ranked(cmds, "cmd.")[:min(10, len(cmds))] {
		fmt.Fprintf(&b, "%d. /%s: %d\n", i+1, e.name, e.count)
	}
	users, err := m.users(ctx, 10)
	return b.String() + "\n" + users, err
}

func (m *module) users(ctx context.Context, limit int) (string, error) {
	sums, err := m.c.sums(ctx, "user.")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("Top users:\n")
	for i, e := range ranked(sums, "user.")[:min(limit, len(sums))] {
		fmt.Fprintf(&b, "%d. %s: %d\n", i+1, m.label(ctx, e.name), e.count)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// user shows one user's commands; who is an id or a username (with or
// without @).
func (m *module) user(ctx context.Context, who string) (string, error) {
	id, err := m.resolveUser(ctx, strings.TrimPrefix(who, "@"))
	if err != nil || id == "" {
		return "No such user: " + app.Quote(who), err
	}
	pairs, err := m.c.sums(ctx, "cu.")
	if err != nil {
		return "", err
	}
	mine := map[string]int64{}
	var total int64
	for k, v := range pairs {
		cmdName, uid, _ := strings.Cut(strings.TrimPrefix(k, "cu."), ".")
		if uid == id {
			mine[cmdName] += v
			total += v
		}
	}
	if total == 0 {
		return "No commands counted for " + m.label(ctx, id) + ".", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d commands\n", m.label(ctx, id), total)
	for _, e := range ranked(mine, "") {
		fmt.Fprintf(&b, "/%s: %d\n", e.name, e.count)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func (m *module) resolveUser(ctx context.Context, who string) (string, error) {
	if _, err := strconv.ParseInt(who, 10, 64); err == nil {
		return who, nil
	}
	keys, err := m.store.List(ctx, "name.")
	if err != nil {
		return "", err
	}
	for _, k := range keys {
		if v, err := m.store.Get(ctx, k); err == nil && strings.EqualFold(string(v), who) {
			return strings.TrimPrefix(k, "name."), nil
		}
	}
	return "", nil
}

func (m *module) command(ctx context.Context, name string) (string, error) {
	// The name becomes a key prefix: only a command this bot has may.
	if !m.known(name) {
		return "No such command: " + app.Quote(name) + ".", nil
	}
	pairs, err := m.c.sums(ctx, "cu."+name+".")
	if err != nil {
		return "", err
	}
	var total int64
	byUser := map[string]int64{}
	for k, v := range pairs {
		byUser[strings.TrimPrefix(k, "cu."+name+".")] += v
		total += v
	}
	if total == 0 {
		return "/" + name + " has not been used.", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "/%s: %d uses\n", name, total)
	for i, e := range ranked(byUser, "")[:min(10, len(byUser))] {
		fmt.Fprintf(&b, "%d. %s: %d\n", i+1, m.label(ctx, e.name), e.count)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}
