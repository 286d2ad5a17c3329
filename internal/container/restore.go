package container

import (
	"context"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// RefuseUnfinishedRestore (wiring.Options.Check) stops the start on a store
// a restore was cut short in: it may lack any part of its archive, and
// would serve as if whole. The container starts on a store an operator may
// have restored into; the Lambda's start stays one read lighter.
func RefuseUnfinishedRestore(ctx context.Context, store storage.KVProvider, log *slog.Logger) error {
	m, marked, err := backup.RestoreInProgress(ctx, store)
	switch {
	case err != nil:
		// A store that cannot answer is /healthz's to report, not a reason
		// to stay down.
		log.Warn("could not read the restore mark", "err", err)
		return nil
	case marked:
		return backup.Unfinished(m)
	}
	return nil
}
