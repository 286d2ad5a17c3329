package trading

import (
	"cmp"
	"context"
	"maps"
	"slices"
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
		maps.DeleteFunc(*u, func(_ string, at time.Time) bool { return now.Sub(at) >= qs.UnknownFor })
		(*u)[sym] = now
		// Past maxUnknown, the oldest go (of equals, the first by symbol).
		oldestFirst := slices.SortedFunc(maps.Keys(*u), func(a, b string) int { return cmp.Or((*u)[a].Compare((*u)[b]), cmp.Compare(a, b)) })
		for _, s := range oldestFirst[:max(0, len(oldestFirst)-maxUnknown)] {
			delete(*u, s)
		}
		return true, nil
	})
	if err != nil {
		qs.Log.Warn("unknown symbol not remembered", "symbol", sym, "err", err)
	}
}
