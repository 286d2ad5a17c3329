package migrate

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// checkpointPrefix keys, in the target's core namespace, when the first
// copy from each source started. A later copy from that source knows from
// it that a source item at least that old which the target lacks was
// deleted on the target, not missed. Verify and mirror leave these keys out:
// they are the migrator's, not the bot's.
const checkpointPrefix = "migrate:since:"

func checkpointKey(source string) string {
	return checkpointPrefix + strings.NewReplacer("/", "_", " ", "_").Replace(source)
}

// isCheckpoint reports whether an item is a migrator checkpoint.
func isCheckpoint(ns, key string) bool {
	return ns == core.CoreNamespace && strings.HasPrefix(key, checkpointPrefix)
}

// readCheckpoint is when the first copy from source into dst started; zero
// when there was none.
func readCheckpoint(ctx context.Context, dst storage.KVProvider, source string) (time.Time, error) {
	v, err := dst.For(core.CoreNamespace).Get(ctx, checkpointKey(source))
	if errors.Is(err, storage.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return time.Time{}, nil // unreadable: as if none
	}
	return time.Unix(0, n), nil
}

// writeCheckpoint records the first copy's start, once.
func writeCheckpoint(ctx context.Context, dst storage.KVProvider, source string, at time.Time) error {
	err := dst.For(core.CoreNamespace).CompareAndSwap(ctx, checkpointKey(source), nil, []byte(strconv.FormatInt(at.UnixNano(), 10)))
	if errors.Is(err, storage.ErrConflict) {
		return nil
	}
	return err
}
