package backup

import (
	"archive/tar"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// JobName is the scheduled snapshot's cron job: botctl cron run backup
// takes one now, botctl cron status shows how the last ones went.
const JobName = "backup"

// Job is the container's scheduled snapshot of p (BACKUP_DIR): each run
// writes one archive into d, then keeps the newest d.Keep. A failed
// snapshot (a full disk) is a failed run: its error goes to the job's
// status, the log and the cron metrics, and the newest snapshot's age
// (the metric m records at each success, and here from what d already
// holds) keeps growing until one succeeds.
// o names the store and the bot (Options.Source, Options.Bot); the job
// always runs in the background.
func Job(p storage.KVProvider, d Dir, schedule string, o Options, m *metrics.Metrics, log *slog.Logger) app.Cron {
	o.Background = true // the bot serves meanwhile
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		log.Error("backup: BACKUP_DIR cannot be made; every snapshot will fail until it can", "dir", d.Path, "err", err)
	}
	if path, at, ok, err := d.Newest(); err == nil && ok {
		s, size, err := readSummary(path)
		if err != nil {
			log.Warn("backup: the newest snapshot's summary cannot be read", "path", path, "err", err)
		}
		m.Backup(at, size, s.Items)
	} else if err == nil {
		m.Backup(time.Unix(0, 0), 0, 0) // none yet: as old as can be, so the age alert fires until one is taken
	}
	return app.Cron{
		Name:     JobName,
		Schedule: schedule,
		Timeout:  app.MaxCronTimeout, // a server's store is walked: minutes, for a big one
		// A snapshot is of the store as it is now, whichever slot it runs for.
		Handler: func(ctx context.Context, _ app.CronRun) error {
			start := time.Now()
			path, s, err := d.Take(ctx, p, o)
			if s == nil {
				return err // nothing written; Take removed its partial file
			}
			var size int64
			if fi, serr := os.Stat(path); serr == nil {
				size = fi.Size()
			}
			m.Backup(start, size, s.Items)
			log.Info("backup written", "path", path, "items", s.Items, "bytes", size, "crc32", s.CRC32,
				"duration", time.Since(start).Round(time.Millisecond))
			for _, bad := range s.Skipped {
				log.Warn("backup: an item breaks the storage rules, not archived", "item", bad)
			}
			return err // the old ones not pruned: the run fails, the snapshot stands
		},
	}
}

// readSummary reads an archive's summary and its size without reading the
// payload through: tar skips an entry's contents by seeking.
func readSummary(path string) (Summary, int64, error) {
	var s Summary
	f, err := os.Open(path)
	if err != nil {
		return s, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return s, 0, err
	}
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err != nil {
			return s, fi.Size(), fmt.Errorf("no %s: %w", summaryName, err)
		}
		if hdr.Name == summaryName {
			err := json.NewDecoder(io.LimitReader(tr, maxMeta)).Decode(&s)
			return s, fi.Size(), err
		}
	}
}
