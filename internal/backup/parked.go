package backup

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// isParked: an update the poller parked (storage.InboxPrefix), confirmed
// to Telegram and not yet handled. A store restored with them answers them
// again at its start.
func isParked(ns, key string) bool {
	return ns == storage.CoreNamespace && strings.HasPrefix(key, storage.InboxPrefix)
}

// Parked counts the updates parked in the archive's inbox.
func (a *Archive) Parked(ctx context.Context) (int64, error) {
	n, err := migrate.Parked(ctx, a)
	if err != nil {
		return 0, fmt.Errorf("backup: the archive's parked updates: %w", err)
	}
	return int64(n), nil
}

// ErrOtherBot refuses an archive of another bot: its parked updates
// would be answered, its chats written to, by this one.
var ErrOtherBot = errors.New("backup: the archive is another bot's")

// CheckBot refuses an archive whose manifest names another bot than
// o.Bot, unless o.OtherBot says to go on. Either id unknown (0) passes.
func CheckBot(m Manifest, o RestoreOptions) error {
	if m.Bot == 0 || o.Bot == 0 || m.Bot == o.Bot || o.OtherBot {
		return nil
	}
	return fmt.Errorf("%w: it was taken of bot %d, this store is bot %d's; rerun with -other-bot to restore it all the same", ErrOtherBot, m.Bot, o.Bot)
}

// sourceOf is what a restore copies from a: all of it, or all but the
// parked updates.
func sourceOf(a *Archive, o RestoreOptions) migrate.Source {
	if o.Parked {
		return a
	}
	return withoutParked{a}
}

// withoutParked is an archive less its parked updates.
type withoutParked struct{ *Archive }

func (w withoutParked) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	return w.Archive.Walk(ctx, func(r storage.Raw) error {
		if isParked(r.Namespace, r.Key) {
			return nil
		}
		return fn(r)
	})
}

func (w withoutParked) Items(ctx context.Context, ns string) iter.Seq2[storage.Item, error] {
	return func(yield func(storage.Item, error) bool) {
		for it, err := range w.Archive.Items(ctx, ns) {
			if err == nil && isParked(ns, it.Key) {
				continue
			}
			if !yield(it, err) {
				return
			}
		}
	}
}
