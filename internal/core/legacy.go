package core

import (
	"context"
	"strconv"
	"strings"
)

// sweepLegacy deletes what earlier builds wrote per update and this one
// never reads again: attempt tokens ("try:<id>:<n>") and the late records
// keyed by update id ("update:late:<id>", now a ring of dedupSlots). It runs
// with the deploy notice, once per build; what it misses the next build
// sweeps.
func (a *App) sweepLegacy(ctx context.Context) {
	var swept int
	for _, prefix := range []string{"try:", "update:late:"} {
		keys, err := a.core.List(ctx, prefix)
		if err != nil {
			a.log.Warn("deploy: legacy update records not swept", "prefix", prefix, "err", err)
			return
		}
		for _, k := range keys {
			if n, err := strconv.ParseInt(strings.TrimPrefix(k, "update:late:"), 10, 64); prefix == "update:late:" && err == nil && n < dedupSlots {
				continue // a slot of the ring
			}
			if err := a.core.Delete(ctx, k); err != nil {
				a.log.Warn("deploy: legacy update records not swept", "key", k, "err", err)
				return
			}
			swept++
		}
	}
	if swept > 0 {
		a.log.Info("deploy: legacy update records swept", "keys", swept)
	}
}
