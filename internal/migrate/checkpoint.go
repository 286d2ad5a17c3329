package migrate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// A store's checkpoint of another store, core/migrate:since:<other>, is
// when the last successful copy or mirror from that other store into it
// started (the migrator's clock). Every successful copy and mirror moves the
// target's checkpoint of its source to its own start; a dry run, a failed
// run and a verify leave every checkpoint alone, and no run writes to its
// source. Copies, mirrors and verifies never copy, compare or delete these
// keys: they are the migrator's, not the bot's.
//
// A checkpoint answers two questions:
//   - What did the target delete since? A source item at least that old
//     which the target lacks was deleted there, not missed: a copy leaves it
//     deleted, the after-cutover check counts it as deleted.
//   - Which way did data last go between two stores? When the source's
//     checkpoint of the target is later than the target's of the source, the
//     target was last copied into the source (a rollback), and the source has
//     served since: only a mirror carries what it deleted.
const checkpointPrefix = "migrate:since:"

func checkpointKey(store string) string {
	return checkpointPrefix + strings.NewReplacer("/", "_", " ", "_").Replace(store)
}

// IsCheckpoint reports whether an item is a migrator checkpoint: a restore
// carries them, as part of the store's state, where a copy skips them.
func IsCheckpoint(ns, key string) bool { return isCheckpoint(ns, key) }

// isCheckpoint reports whether an item is a migrator checkpoint.
func isCheckpoint(ns, key string) bool {
	return ns == storage.CoreNamespace && strings.HasPrefix(key, checkpointPrefix)
}

// readCheckpoint is when the last copy or mirror from store into p
// started; zero when there was none.
func readCheckpoint(ctx context.Context, p storage.KVProvider, store string) (time.Time, error) {
	v, err := p.For(storage.CoreNamespace).Get(ctx, checkpointKey(store))
	if errors.Is(err, storage.ErrNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the checkpoint of %s: %w", store, err)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return time.Time{}, nil // unreadable: as if none
	}
	return time.Unix(0, n), nil
}

// moveCheckpoint records that a copy or mirror from store into p that
// started at at has completed.
func moveCheckpoint(ctx context.Context, p storage.KVProvider, store string, at time.Time) error {
	return p.For(storage.CoreNamespace).Put(ctx, checkpointKey(store), []byte(strconv.FormatInt(at.UnixNano(), 10)))
}

// ErrWentBack is returned by a copy, and by the after-cutover check, when
// the last copy or mirror between the two stores went from the target into
// the source: the source has served since, so a copy could not carry what
// was deleted there, and the target is no longer what the source was copied
// from. The mirror is the way forward.
var ErrWentBack = errors.New("migrate: the data last went from the target into the source")

// transfers are the two checkpoints of a pair of stores.
type transfers struct {
	into time.Time // the last copy or mirror from the source into the target
	back time.Time // the last one from the target into the source
}

// wentBack reports whether data last went from the target into the source.
func (t transfers) wentBack() bool { return t.back.After(t.into) }

// explain says, after a transfer back, what went where when.
func (t transfers) explain(source, target string) string {
	s := fmt.Sprintf("%s was copied or mirrored into %s at %s, ", target, source, stamp(t.back))
	if t.into.IsZero() {
		return s + "and never the other way"
	}
	return s + "after the last copy the other way, at " + stamp(t.into)
}

// readTransfers reads the target's checkpoint of the source and the
// source's of the target (one key read on each side).
func readTransfers(ctx context.Context, src, dst storage.KVProvider, source, target string) (transfers, error) {
	into, err := readCheckpoint(ctx, dst, source)
	if err != nil {
		return transfers{}, fmt.Errorf("migrate: target: %w", err)
	}
	back, err := readCheckpoint(ctx, src, target)
	if err != nil {
		return transfers{}, fmt.Errorf("migrate: source: %w", err)
	}
	return transfers{into: into, back: back}, nil
}

// refuseCopy is a plain copy's refusal after a transfer the other way.
func refuseCopy(t transfers, source, target string) error {
	return fmt.Errorf("%w: %s; %s may have deleted items since, and a copy never deletes. "+
		"Make the target exactly the source with the mirror instead: --mirror --confirm-target %q (look first with --mirror --dry-run)",
		ErrWentBack, t.explain(source, target), source, target)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
