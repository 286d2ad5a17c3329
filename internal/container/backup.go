package container

import (
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
)

// Jobs are the container's own cron jobs (wiring.Options.Jobs): the
// scheduled snapshot of the store, when BACKUP_DIR is set. Only this
// process can copy the file store, whose lock it holds.
func Jobs(cfg *config.Config, store storage.KVProvider, m *metrics.Metrics, log *slog.Logger) []app.Cron {
	if cfg.BackupDir == "" {
		return nil
	}
	d := backup.Dir{Path: cfg.BackupDir, Keep: cfg.BackupKeep}
	return []app.Cron{backup.Job(store, d, cfg.BackupSchedule, backup.Options{Source: backend.Describe(cfg), Bot: cfg.BotID()}, m, log)}
}
