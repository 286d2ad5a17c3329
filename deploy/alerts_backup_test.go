package deploy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// snapshotScrapes are a bot's scrapes with BACKUP_DIR set, and when the
// snapshots it reports were taken.
type snapshotScrapes struct {
	none, taken1, failed, retaken []sample
	taken, retakenAt              time.Time
}

// backupScrapes runs the container with BACKUP_DIR and scrapes it before
// its first snapshot, after one, after a snapshot that failed (the
// directory made a file), and after the next, which succeeded.
func backupScrapes(t *testing.T) snapshotScrapes {
	t.Helper()
	srv := telegramtest.New(t)
	dir := filepath.Join(t.TempDir(), "backups")
	metricsAddr := testenv.FreePort(t)
	c := runtimetest.StartContainer(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"),
		"CRON_SHARED_SECRET": "tok", "LOG_LEVEL": "error", "BACKUP_DIR": dir,
		// Due 12 hours from now: never caught up at start, never run by
		// the scheduler while the test runs.
		"BACKUP_SCHEDULE": fmt.Sprintf("0 %d * * *", (time.Now().UTC().Hour()+12)%24),
	})
	get, until := scraper(t, metricsAddr)
	at := labels.FromStrings("__name__", "miti99bot_backup_last_success_timestamp_seconds")
	failed := labels.FromStrings("__name__", "miti99bot_cron_runs_total", "job", "backup", "outcome", "failed")
	var s snapshotScrapes
	if s.none = get(); valueOf(s.none, at) != 0 {
		t.Fatalf("before the first snapshot its time is %v; want 0", valueOf(s.none, at))
	}
	// Each run for a slot of its own: a slot run once is skipped after.
	slot := time.Now().UTC().Truncate(time.Minute).Add(-3 * time.Minute)
	take := func(want string) {
		t.Helper()
		slot = slot.Add(time.Minute)
		if out := runCron(t, c.Base, "backup?scheduled="+slot.Format(time.RFC3339)); out != want {
			t.Fatalf("the snapshot's run answered %q; want %q", out, want)
		}
	}
	take("ran")
	s.taken1 = until(at, 1)
	s.taken = time.Unix(int64(valueOf(s.taken1, at)), 0)

	// A snapshot cannot be written: the directory is gone, a file in its place.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	take("job failed")
	s.failed = until(failed, 1)

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	take("ran")
	s.retaken = until(at, valueOf(s.taken1, at)+1e-3)
	s.retakenAt = time.Unix(int64(valueOf(s.retaken, at)), 0)
	return s
}
