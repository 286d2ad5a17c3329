package core

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"sync"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// A damaged item (a stored value that cannot be decoded, see
// storage.DamagedError) is permanent: no retry reads it, so the update
// that met it is answered and finished, and a job that met it does the
// rest. The engine keeps a marker per item in its own namespace: the
// first sighting is logged as an ERROR once (every process, every
// delivery), /healthz says degraded while one stands, and the operator
// finds them with botctl store scan. A marker whose item was deleted or
// rewritten is dropped by the next health check.
const damagedPrefix = "damaged:"

// DamageMark is a damaged item's marker: which item, and the fingerprint of
// the bytes that could not be read.
type DamageMark struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Sum       string `json:"sum"`
	At        int64  `json:"at"` // unix seconds of its first sighting
}

// DamageMarkKey is the core namespace's key of the marker of ns/key.
func DamageMarkKey(ns, key string) string {
	k := damagedPrefix + ns + ":" + key
	if len(k) > storage.MaxKeyBytes {
		k = damagedPrefix + ns + ":#" + storage.Fingerprint([]byte(key))
	}
	return k
}

// reportDamage logs, counts and marks every damaged item in err, which a
// run of module met (module names an item whose reader did not know its
// namespace); where says which run (update_id, cron).
func (a *App) reportDamage(ctx context.Context, module string, err error, where ...any) {
	items := storage.DamagedItems(err)
	if len(items) == 0 {
		// An unreadable value its reader did not name (a timer's record):
		// said each time, as the error says it.
		a.metrics.Damaged(module)
		a.log.Error("a stored value cannot be read; not retried", append(where, "namespace", module, "err", err)...)
		return
	}
	for _, d := range items {
		ns := d.Namespace
		if ns == "" {
			ns = module
		}
		// Marked before it is counted: whoever sees the count finds the mark.
		first, merr := a.markDamaged(ctx, DamageMark{Namespace: ns, Key: d.Key, Sum: d.Sum, At: a.now().Unix()})
		a.metrics.Damaged(ns)
		level, msg := slog.LevelError, "a stored value cannot be read; not retried"
		if !first && merr == nil {
			level, msg = slog.LevelWarn, "a damaged stored value, reported before, still cannot be read"
		}
		item := shellWord(ns) + " " + shellWord(d.Key)
		args := append([]any{"namespace", ns, "key", d.Key, "fingerprint", d.Sum,
			"repair", "botctl store show " + item + ", then botctl store quarantine " + item + " (docs/backup.md)",
			"err", d.Err}, where...)
		if merr != nil {
			args = append(args, "mark_err", merr)
		}
		a.log.Log(ctx, level, msg, args...)
	}
}

// markDamaged writes m's marker and reports whether it is new (or the item
// was damaged anew since): the sighting to report as an ERROR.
func (a *App) markDamaged(ctx context.Context, m DamageMark) (first bool, err error) {
	// Written even when the run's budget is spent, within a record's own.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordBudget)
	defer cancel()
	err = storage.Update(ctx, a.core, DamageMarkKey(m.Namespace, m.Key), func(cur []byte) ([]byte, error) {
		var old DamageMark
		if first = cur == nil || json.Unmarshal(cur, &old) != nil || old.Sum != m.Sum; !first {
			return nil, nil
		}
		return json.Marshal(m)
	})
	return first, err
}

// DamagedItems lists the damaged items the engine has seen and that still
// hold the bytes it could not read; markers of repaired ones are dropped.
func DamagedItems(ctx context.Context, p storage.KVProvider) ([]DamageMark, error) {
	core := p.For(storage.CoreNamespace)
	keys, err := core.List(ctx, damagedPrefix)
	if err != nil {
		return nil, err
	}
	var out []DamageMark
	for _, k := range keys {
		var m DamageMark
		if err := core.GetJSON(ctx, k, &m); err != nil {
			if errors.Is(err, storage.ErrUnreadable) {
				_ = core.Delete(ctx, k) // a marker of its own that cannot be read marks nothing
				continue
			}
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			return out, err
		}
		v, err := p.For(m.Namespace).Get(ctx, m.Key)
		switch {
		case errors.Is(err, storage.ErrNotFound), err == nil && storage.Fingerprint(v) != m.Sum:
			_ = core.Delete(ctx, k) // repaired: deleted or written anew
			continue
		case err != nil:
			return out, err
		}
		out = append(out, m)
	}
	return out, nil
}

// tellDamaged answers an update whose run met a damaged item.
func (a *App) tellDamaged(ctx context.Context, lang app.Lang, chat int64, thread int) {
	if chat == 0 {
		return
	}
	if _, err := a.bot.Send(ctx, app.Message{ChatID: chat, ThreadID: thread, Text: a.say(lang, "damaged")}); err != nil {
		a.log.Warn("could not tell the user of a damaged item", "err", err)
	}
}

// skipDamaged runs a job that does every item it can: a job whose only
// failures are damaged items did the rest, so it ran (each item is
// reported); one with other failures fails as before (its retry finds the
// damaged items marked, and reports them as known).
func (a *App) skipDamaged(job CronJob) func(context.Context, app.CronRun) error {
	run := job.Handler
	return func(ctx context.Context, r app.CronRun) error {
		err := run(ctx, r)
		if !errors.Is(err, storage.ErrUnreadable) {
			return err
		}
		a.reportDamage(ctx, job.Module, err, "cron", job.Name)
		if storage.OnlyDamage(err) {
			return nil
		}
		return err
	}
}

var plainWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_:.,@%+=-]+$`) })

// shellWord quotes s for a POSIX shell unless it needs none.
func shellWord(s string) string {
	if plainWord().MatchString(s) {
		return s
	}
	out := []byte{'\''}
	for i := range len(s) {
		if s[i] == '\'' {
			out = append(out, `'\''`...)
			continue
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}
