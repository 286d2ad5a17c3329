package remind

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// maxPending bounds a user's pending reminders, all chats together.
const maxPending = 50

// holdStale: a hold this old whose timer is not pending stands for no
// reminder (the set never came, a cancel's release failed, the chat went
// and took its timers): a set takes seconds, within its update's budget.
const holdStale = 10 * time.Minute

// hold is one reminder the user's bound counts: when it is due and when
// it was taken (both unix seconds).
type hold struct {
	Due   int64 `json:"due"`
	Taken int64 `json:"taken"`
}

// errFull: the user holds maxPending reminders already.
var errFull = errors.New("remind: the user's reminders are at the bound")

// reserve takes a hold for key in the user's record before its timer is
// set: the count and the take are one compare-and-swap on that one
// record, so no two sets in any chats, however concurrent, pass the bound
// together. A hold already there (this update delivered again) stands.
// pending are the keys of the user's timers now: a record that never
// counted them starts from them (due at most maxAhead away, let go once
// they are no longer pending), and a stale hold not among them is let go.
func (m *module) reserve(ctx context.Context, user int64, key string, at time.Time, pending []string) error {
	now := m.now()
	return storage.UpdateJSON(ctx, m.store, askedKey(user), func(a *asked, _ bool) (bool, error) {
		if _, ok := a.Holds[key]; ok {
			return false, nil
		}
		if a.Holds == nil {
			a.Holds = map[string]hold{}
		}
		if !a.Counted {
			for _, k := range pending {
				if _, ok := a.Holds[k]; !ok {
					a.Holds[k] = hold{Due: now.Add(maxAhead).Unix(), Taken: now.Unix()}
				}
			}
			a.Counted = true
		}
		for k, h := range a.Holds {
			gone := !slices.Contains(pending, k)
			if h.Due <= now.Unix() || gone && now.Sub(time.Unix(h.Taken, 0)) > holdStale {
				delete(a.Holds, k)
			}
		}
		if len(a.Holds) >= maxPending {
			return false, errFull
		}
		a.Holds[key] = hold{Due: at.Unix(), Taken: now.Unix()}
		return true, nil
	})
}

// pressed applies a Cancel press of key once, by its update id, before
// the timer is cancelled: key's hold goes (never coming, or being sent:
// it no longer counts), and again reports whether an earlier run of this
// press did so (then a timer cancelled before was cancelled by it). A
// failure only keeps the hold until it goes stale.
func (m *module) pressed(ctx context.Context, user int64, key string, update int64) (again bool) {
	err := storage.UpdateJSON(ctx, m.store, askedKey(user), func(a *asked, _ bool) (bool, error) {
		_, changed, err := app.ApplyTo(a, update, func(a *asked) (bool, error) {
			delete(a.Holds, key)
			return true, nil
		})
		again = !changed && update != 0
		return changed, err
	})
	if err != nil {
		m.log.Warn("remind: a cancelled reminder still counts toward its user's bound until its hold goes stale", "key", key, "err", err)
	}
	return again
}
