package stats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Before tallies, every use was three sharded counters ("n:<counter>:<shard>",
// the (command, user) one being "cu.<command>.<user>") and a name key
// ("name.<user>"). Nothing writes them any more; loadLegacy adds what an
// earlier version wrote, so an upgrade loses no count. The per-command and
// per-user counters are sums of the (command, user) ones, so only those are read.
const (
	legacyCounts = "n:cu."
	legacyNames  = "name."
)

func loadLegacy(ctx context.Context, s storage.KVStore, u usage) error {
	keys, err := s.List(ctx, legacyCounts)
	if err != nil {
		return err
	}
	for _, k := range keys {
		pair := strings.TrimPrefix(k, legacyCounts)
		i := strings.LastIndexByte(pair, ':')
		if i < 0 {
			continue
		}
		command, user, ok := strings.Cut(pair[:i], ".")
		if !ok {
			continue
		}
		v, err := s.Get(ctx, k)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return fmt.Errorf("stats: counter %s: %w", k, err)
		}
		u.add(user, command, n)
	}
	names, err := s.List(ctx, legacyNames)
	if err != nil {
		return err
	}
	for _, k := range names {
		user := strings.TrimPrefix(k, legacyNames)
		if _, newer := u.names[user]; newer {
			continue
		}
		if v, err := s.Get(ctx, k); err == nil && len(v) > 0 {
			u.names[user] = string(v)
		}
	}
	return nil
}
