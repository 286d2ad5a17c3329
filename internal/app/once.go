package app

import (
	"context"
	"slices"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Applied is one change a state remembers: the id it is known by (the
// update that made it, or a game's id) and the reply it earned.
type Applied[R any] struct {
	ID    int64 `json:"update"`
	Reply R     `json:"reply,omitzero"`
}

// Once is embedded in a state changed with ApplyOnce: the last changes
// made to it, so that a change told again is not made twice. Kept in the
// state itself, it is written by the same compare-and-swap as the change.
type Once[R any] struct {
	Applied []Applied[R] `json:"applied,omitempty"`
}

func (o *Once[R]) once() *Once[R] { return o }

// Replay is the reply the change id earned, if the state remembers it
// (ok false otherwise, and always for id 0): a handler that must not redo
// work before its change (ask an API again) checks it first.
func (o *Once[R]) Replay(id int64) (reply R, ok bool) {
	i := slices.IndexFunc(o.Applied, func(a Applied[R]) bool { return a.ID == id })
	if id == 0 || i < 0 {
		return reply, false
	}
	return o.Applied[i].Reply, true
}

// OnceState is a pointer to a state type S that embeds Once[R].
type OnceState[S, R any] interface {
	*S
	once() *Once[R]
}

// defaultRemembered bounds how many changes a state remembers: a change is
// told again (Telegram redelivers an update, the core runs a hook again)
// within minutes, and a user makes few in that time.
const defaultRemembered = 8

// OnceOption tunes ApplyOnce and ApplyTo.
type OnceOption func(*onceConfig)

type onceConfig struct{ remember int }

// Remember keeps the last n changes (at least 1; default 8): enough to
// cover every change made between one and its being told again.
func Remember(n int) OnceOption {
	return func(c *onceConfig) { c.remember = max(1, n) }
}

// ApplyTo applies f to s unless s remembers the change id, and reports
// whether s changed (to be written back). A change s remembers is not made
// again: f does not run, and its kept reply is returned. Otherwise f runs:
// its error is returned with changed false (the caller writes nothing),
// and its success is remembered with its reply, the oldest change
// forgotten past the bound. Id 0 (unknown) is applied
// every time. ApplyTo is the step under a module's own compare-and-swap
// loop; ApplyOnce is the loop.
func ApplyTo[S, R any, P OnceState[S, R]](s P, id int64, f func(s P) (R, error), opts ...OnceOption) (reply R, changed bool, err error) {
	if kept, ok := s.once().Replay(id); ok {
		return kept, false, nil
	}
	if reply, err = f(s); err != nil {
		return reply, false, err
	}
	if id != 0 {
		c := onceConfig{remember: defaultRemembered}
		for _, o := range opts {
			o(&c)
		}
		o := s.once()
		o.Applied = append(o.Applied, Applied[R]{ID: id, Reply: reply})
		o.Applied = o.Applied[max(0, len(o.Applied)-c.remember):]
	}
	return reply, true, nil
}

// ApplyOnce makes the change id to the state (a JSON value) at key at most
// once, with storage.UpdateJSON's compare-and-swap loop, and returns the
// reply it earned. f gets the state (found false, and S zero, when there is
// none); it may run again after a lost race, so it must be a pure function
// of the state. A change told again (its write landed, the reply or the
// record of it failed, and the update runs again) returns the reply it
// earned the first time and writes nothing. An error from f writes nothing
// and is returned, with f's reply.
func ApplyOnce[S, R any, P OnceState[S, R]](ctx context.Context, store storage.KVStore, key string, id int64, f func(s P, found bool) (R, error), opts ...OnceOption) (R, error) {
	var reply R
	err := storage.UpdateJSON(ctx, store, key, func(s *S, found bool) (bool, error) {
		out, changed, err := ApplyTo(P(s), id, func(s P) (R, error) { return f(s, found) }, opts...)
		reply = out
		return changed, err
	})
	return reply, err
}
