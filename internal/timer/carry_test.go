package timer_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// Timers are items of the core namespace like any other state: the
// migrator's copy and a backup's restore carry them, and the other side
// fires each once (the side they left is stopped, as the runbook has it).
func TestATimerCarriedByTheMigratorOrABackupFiresOnceOnTheOtherSide(t *testing.T) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	src := memory.New()
	e := engine(src.For(storage.CoreNamespace), clk, nil)
	set(t, e, "k", t0.Add(5*time.Minute))
	tick(t, e) // the source has a cursor too

	migrated := backendtest.Bolt(t)
	if _, err := migrate.Copy(ctx, src, migrated, migrate.Options{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := backup.WriteFile(ctx, src, path, backup.Options{Source: "the test's store"}); err != nil {
		t.Fatal(err)
	}
	a, err := backup.Open(path, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.Close(ctx) }()
	restored := memory.New()
	if _, err := backup.Restore(ctx, a, restored, backup.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}

	for name, p := range map[string]storage.KVProvider{"migrated": migrated, "restored": restored} {
		t.Run(name, func(t *testing.T) {
			clk := apptest.NewClock(t0)
			var c calls
			other := engine(p.For(storage.CoreNamespace), clk, c.on)
			for range 8 {
				clk.Add(time.Minute)
				tick(t, other)
			}
			if got := c.list(); len(got) != 1 || got[0].Key != "k" || string(got[0].Payload) != "hi" {
				t.Fatalf("callbacks %+v, want the timer once", got)
			}
		})
	}
}
