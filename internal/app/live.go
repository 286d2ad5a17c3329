package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// LiveView is what a live message shows of one version of its state.
type LiveView struct {
	// Version orders the state's versions: every change of the state
	// raises it, under the same compare-and-swap as the change.
	Version int64
	// Edit is the message's chat and id, and what it shows at Version.
	Edit Edit
}

// LiveStale is how long one Show may hold a live message's edits before
// another takes them over (it died, or its edit hangs).
const LiveStale = time.Minute

// Live shows the latest state of something (counts, a board) in a message
// the bot sent, edited as the state changes. Edits of one message go one
// at a time, each from the state as it is when sent, and an edit of a
// version older than one Telegram already got is not sent: Telegram never
// shows an older state after a newer one, whatever the order in which
// concurrent changes (other replicas, the other runtime) come to Show.
type Live struct {
	Store storage.KVStore // the module's: a record "live:<key>" per message
	Bot   Messenger
	Now   func() time.Time
}

// liveRecord is a live message's record: the version Telegram shows, and
// the Show that holds its edits (0: none).
type liveRecord struct {
	Shown  int64 `json:"shown"`
	Holder int64 `json:"holder,omitempty"`
	At     int64 `json:"at,omitempty"` // unix nanos the holder took it
	// Unsure: a Show that outlived its hold may have sent an older edit
	// late; Shown is no longer known.
	Unsure bool `json:"unsure,omitempty"`
}

// Show makes the message at key show the latest state: call it after each
// change of the state, with latest reading the state as it is now. If
// another Show holds the message's edits, Show returns at once: the
// holder reads the state again after its edit, so it shows this change
// (after LiveStale, if it died). Otherwise Show edits to latest's view
// unless Telegram shows that version already, and repeats while the
// state moved on during its edit. An error of latest or of the edit is
// returned, the edits let go.
func (l Live) Show(ctx context.Context, key string, latest func(ctx context.Context) (LiveView, error)) error {
	key = "live:" + key
	for {
		token, shown, ok, err := l.take(ctx, key)
		if err != nil || !ok {
			return err
		}
		v, err := latest(ctx)
		if err == nil && v.Version > shown {
			if err = l.Bot.Edit(ctx, v.Edit); err == nil {
				shown = v.Version
			}
		}
		shown, rerr := l.letGo(context.WithoutCancel(ctx), key, token, shown)
		if err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
		// A change made while the edit went out found the edits held and
		// left its showing to this Show: look again, now that they are free.
		if v, err = latest(ctx); err != nil || v.Version <= shown {
			return err
		}
	}
}

// take holds key's edits for this Show, unless a live one holds them.
func (l Live) take(ctx context.Context, key string) (token, shown int64, ok bool, err error) {
	now := l.Now()
	token = rand.Int64N(1<<62) + 1
	err = storage.UpdateJSON(ctx, l.Store, key, func(r *liveRecord, _ bool) (bool, error) {
		shown, ok = r.Shown, false // this may run again after a lost race
		if r.Holder != 0 && now.Sub(time.Unix(0, r.At)) < LiveStale {
			return false, nil
		}
		r.Holder, r.At, ok = token, now.UnixNano(), true
		return true, nil
	})
	if err != nil {
		return 0, 0, false, fmt.Errorf("live message %s: %w", key, err)
	}
	return token, shown, ok, nil
}

// letGo frees key's edits, recording what Telegram shows, and returns
// that. A Show whose hold was taken over (it outlived LiveStale) may have
// sent its edit after its successor's newer one: it marks the record
// unsure, and the successor, letting go, records nothing shown, so its
// look again edits to the latest.
func (l Live) letGo(ctx context.Context, key string, token, shown int64) (int64, error) {
	err := storage.UpdateJSON(ctx, l.Store, key, func(r *liveRecord, _ bool) (bool, error) {
		switch {
		case r.Holder != token:
			r.Unsure, shown = true, 0
		case r.Unsure:
			r.Holder, r.At, r.Shown, r.Unsure, shown = 0, 0, 0, false, 0
		default:
			r.Holder, r.At, r.Shown = 0, 0, max(r.Shown, shown)
			shown = r.Shown
		}
		return true, nil
	})
	if err != nil {
		return 0, fmt.Errorf("live message %s: %w", key, err)
	}
	return shown, nil
}
