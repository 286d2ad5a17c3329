//go:build linux

package e2e

import (
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// A full disk fails the snapshot job where the operator looks: the run's
// answer, botctl cron status, the metrics and the log, while the snapshots
// already there stay, no partial file is left, and the bot serves on. The
// disk is full for the bot's process only: RLIMIT_FSIZE caps every file it
// writes (its store is on a server).
func TestAFullDiskFailsTheSnapshotJobVisibly(t *testing.T) {
	ctx := t.Context()
	s := mongoStore(t)
	p := s.open(t, s.env)
	if _, err := p.Load(ctx, bulk(1000), storage.LoadOptions{}); err != nil { // a snapshot of about 300 kB
		t.Fatal(err)
	}
	p.Close(ctx)
	dir := t.TempDir()
	taken := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	earlier, _, err := backup.Dir{Path: dir, Keep: 7}.Take(ctx, memory.New(), backup.Options{Now: func() time.Time { return taken }})
	if err != nil {
		t.Fatal(err)
	}

	srv := telegramtest.New(t)
	metricsPort := strings.TrimPrefix(testenv.FreePort(t), "127.0.0.1:")
	env := maps.Clone(s.env)
	maps.Copy(env, map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "OWNER_ID": "1",
		"CRON_SHARED_SECRET": cronSecret, "BACKUP_DIR": dir, "BACKUP_SCHEDULE": farSchedule(time.Now()), "METRICS_ENABLED": "true", "METRICS_PORT": metricsPort})
	c := runtimetest.StartContainer(t, env)
	full := &unix.Rlimit{Cur: 64 << 10, Max: 64 << 10}
	if err := unix.Prlimit(c.Pid(), unix.RLIMIT_FSIZE, full, nil); err != nil {
		t.Fatal(err)
	}

	if out := postCron(ctx, t, c.Base, "backup"); out != "job failed" {
		t.Fatalf("the run answered %q; want it failed", out)
	}
	status, err := botctlRun(t, s.env, "cron", "status")
	if err != nil || !regexp.MustCompile(`(?m)^backup .*\(.*file too large\)`).MatchString(status) {
		t.Fatalf("botctl cron status = %v; want the backup job's failure, file too large:\n%s", err, status)
	}
	m := scrape(t, "http://127.0.0.1:"+metricsPort+"/metrics")
	if m[`miti99bot_cron_runs_total{job="backup",outcome="failed"}`] != 1 {
		t.Errorf("the failed run is not counted: %v", m)
	}
	if got := m["miti99bot_backup_last_success_timestamp_seconds"]; got != float64(taken.Unix()) {
		t.Errorf("the newest snapshot's time is %v; want the earlier one's, %d", got, taken.Unix())
	}
	if log := c.Output(); !regexp.MustCompile(`"msg":"cron failed".*"cron":"backup".*file too large`).MatchString(log) {
		t.Errorf("the log has no failed backup run naming the full disk:\n%s", log)
	}
	if left := listDir(t, dir); len(left) != 1 || left[0] != filepath.Base(earlier) {
		t.Errorf("the snapshots' directory holds %v; want only the earlier snapshot", left)
	}
	sent := len(srv.Messages())
	srv.Push(telegramtest.Text(9, 9, "/ping"))
	if _, err := srv.WaitCalls(ctx, "sendMessage", sent+1); err != nil {
		t.Fatalf("the bot stopped serving: %v", err)
	}
}

// scrape reads a /metrics page into series -> value.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for line := range strings.Lines(string(body)) {
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(line, "#") {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				out[f[0]] = v
			}
		}
	}
	return out
}

func listDir(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
