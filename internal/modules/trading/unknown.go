package trading

import (
	"context"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// UnknownFor is how long NewQuotes remembers a symbol every source called
// unknown: a mistyped symbol pressed again, or a delisted holding valued on
// every refresh, then costs no upstream call.
const UnknownFor = 10 * time.Minute

// unknownKey holds the symbols every source recently called unknown, in
// the module's store like the prices, so both runtimes and every Lambda
// instance share it. One record, pruned on each write and capped at
// maxUnknown: the symbols users can type are endless, and a key for each
// would grow the store without bound.
const (
	unknownKey = "unknown"
	maxUnknown = 64
)

// unknownSymbols maps a symbol to when every source last called it unknown.
type unknownSymbols map[string]time.Time

// knownUnknown reports whether every source called sym unknown less than
// UnknownFor ago. A store error counts as no: the sources are asked.
func (qs *Quotes) knownUnknown(ctx context.Context, sym string) bool {
	if qs.UnknownFor <= 0 {
		return false
	}
	var u unknownSymbols
	if err := qs.Store.GetJSON(ctx, unknownKey, &u); err != nil {
		return false
	}
	at, ok := u[sym]
	return ok && qs.Now().Sub(at) < qs.UnknownFor
}

// markUnknown remembers that every source just called sym unknown.
func (qs *Quotes) markUnknown(ctx context.Context, sym string) {
	if qs.UnknownFor <= 0 {
		return
	}
	now := qs.Now()
	err := storage.UpdateJSON(ctx, qs.Store, unknownKey, func(u *unknownSymbols, _ bool) (bool, error) {
		if *u == nil {
			*u = unknownSymbols{}
		}
		for s, at := range *u {
			if now.Sub(at) >= qs.UnknownFor {
				delete(*u, s)
			}
		}
		(*u)[sym] = now
		for len(*u) > maxUnknown {
			delete(*u, oldest(*u))
		}
		return true, nil
	})
	if err != nil {
		qs.Log.Warn("unknown symbol not remembered", "symbol", sym, "err", err)
	}
}

func oldest(u unknownSymbols) string {
	var sym string
	var first time.Time
	for s, at := range u {
		if sym == "" || at.Before(first) || (at.Equal(first) && s < sym) {
			sym, first = s, at
		}
	}
	return sym
}
