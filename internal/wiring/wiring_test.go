package wiring_test

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/backup/backuptest"
	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// The bot does not start on a store a restore was cut short in: it would
// serve as whole a store that lacks part of its archive. The refusal
// names the archive and how to finish it.
func TestTheBotRefusesToStartOnAStoreARestoreWasCutShortIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "restored.db")
	archive := backuptest.CutRestore(t, path, 40, 25)
	env := map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}
	_, err := wiring.Build(t.Context(), wiring.Options{
		Runtime: wiring.RuntimeContainer, Getenv: func(k string) string { return env[k] }, Logs: io.Discard, Console: io.Discard,
		Stores: backend.Every, Check: container.RefuseUnfinishedRestore, // as cmd/container builds it
	})
	if !errors.Is(err, backup.ErrRestoreUnfinished) {
		t.Fatalf("Build = %v; want ErrRestoreUnfinished", err)
	}
	for _, named := range []string{archive, "-replace"} {
		if !strings.Contains(err.Error(), named) {
			t.Errorf("the refusal does not say %q: %v", named, err)
		}
	}
}
