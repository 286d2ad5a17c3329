package backup

import (
	"bytes"
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// restoreCheckpoints makes the migrator's checkpoints in dst those of the
// archive, which the migrator's copy and verify leave out: restored, the
// store is a copy of the one snapshotted, so it has the same history of
// copies, and the next copy from or into it decides as that one would.
// They are a few keys of the core's namespace.
func restoreCheckpoints(ctx context.Context, a *Archive, dst Target) (int, error) {
	var want []storage.Item
	err := a.Walk(ctx, func(r storage.Raw) error {
		if migrate.IsCheckpoint(r.Namespace, r.Key) {
			want = append(want, r.Item)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("reading the archive's checkpoints: %w", err)
	}
	if len(want) > 0 {
		if _, err := dst.Load(ctx, want, storage.LoadOptions{Overwrite: true}); err != nil {
			return 0, fmt.Errorf("restoring the checkpoints: %w", err)
		}
	}
	keep := map[string]bool{}
	cs := dst.For(storage.CoreNamespace)
	for _, it := range want {
		keep[it.Key] = true
		if got, err := cs.Get(ctx, it.Key); err != nil || !bytes.Equal(got, it.Value) {
			return 0, fmt.Errorf("checkpoint %s/%q did not read back as restored: %v", it.Namespace, it.Key, err)
		}
	}
	keys, err := cs.List(ctx, "migrate:") // IsCheckpoint narrows it
	if err != nil {
		return 0, fmt.Errorf("listing the store's checkpoints: %w", err)
	}
	for _, k := range keys {
		if migrate.IsCheckpoint(storage.CoreNamespace, k) && !keep[k] {
			if err := cs.Delete(ctx, k); err != nil {
				return 0, fmt.Errorf("deleting a checkpoint the archive lacks: %w", err)
			}
		}
	}
	return len(want), nil
}
