package main

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/backup/backuptest"
)

// The container opens every kind of store, and does not start on one a
// restore was cut short in (it would serve as whole a store that lacks
// part of its archive).
func TestTheContainerRefusesAStoreARestoreWasCutShortIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "restored.db")
	backuptest.CutRestore(t, path, 40, 25)
	err := run(t.Context(), consoleArgs(t), envOf(map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}), io.Discard, io.Discard)
	if !errors.Is(err, backup.ErrRestoreUnfinished) {
		t.Fatalf("run = %v; want ErrRestoreUnfinished", err)
	}
}
