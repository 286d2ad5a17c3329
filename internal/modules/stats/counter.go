package stats

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// A counter is spread over shards, each its own key ("n:<counter>:<shard>"),
// incremented with a CAS retry loop: many chats counting the same command at
// once rarely touch the same key, and a lost race re-reads and retries, so
// no increment is lost. The total is the sum of the shards.
const (
	shards     = 8
	maxRetries = 64
	countKeys  = "n:"
)

type counters struct {
	store storage.KVStore
}

func shardKey(counter string, shard int) string {
	return fmt.Sprintf("%s%s:%d", countKeys, counter, shard)
}

// add increments counter by one.
func (c counters) add(ctx context.Context, counter string) error {
	for range maxRetries {
		key := shardKey(counter, rand.IntN(shards))
		cur, err := c.store.Get(ctx, key)
		var n int64
		switch {
		case errors.Is(err, storage.ErrNotFound):
			cur = nil
		case err != nil:
			return err
		default:
			if n, err = strconv.ParseInt(string(cur), 10, 64); err != nil {
				return fmt.Errorf("counter %s: %w", key, err)
			}
		}
		err = c.store.CompareAndSwap(ctx, key, cur, []byte(strconv.FormatInt(n+1, 10)))
		if err == nil {
			return nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("counter %s: %w after %d tries", counter, storage.ErrConflict, maxRetries)
}

// sums adds up every counter starting with prefix, by counter name.
func (c counters) sums(ctx context.Context, prefix string) (map[string]int64, error) {
	keys, err := c.store.List(ctx, countKeys+prefix)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, k := range keys {
		name := strings.TrimPrefix(k, countKeys)
		i := strings.LastIndexByte(name, ':')
		if i < 0 {
			continue
		}
		v, err := c.store.Get(ctx, k)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("counter %s: %w", k, err)
		}
		out[name[:i]] += n
	}
	return out, nil
}
