package backup_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/backup/backuptest"
)

// An entry is never read past what it can truly hold: a sparse store.db
// declaring 64 GiB in an archive of a few kilobytes is refused as
// damaged before a byte of it is unpacked, and nothing is left behind.
func TestAnArchiveWhoseEntryDeclaresMoreThanItHoldsIsRefusedBeforeUnpacking(t *testing.T) {
	path := backuptest.HostileArchive(t)
	if fi, err := os.Stat(path); err != nil || fi.Size() > 10<<10 {
		t.Fatalf("the hostile archive: %v, %v; want one of a few kilobytes", fi, err)
	}
	tmp := t.TempDir()
	_, err := backup.Open(path, tmp)
	if !errors.Is(err, backup.ErrDamaged) || !strings.Contains(err.Error(), "declares 68719476736 bytes") {
		t.Fatalf("Open = %v; want ErrDamaged naming the 64 GiB store.db declares", err)
	}
	if left := names(t, tmp); len(left) != 0 {
		t.Fatalf("the refused archive left %v in the temporary directory", left)
	}
}

// The manifest names the payload's size: a store.db of any other size is
// refused before it is unpacked.
func TestAPayloadOfAnotherSizeThanItsManifestSaysIsRefused(t *testing.T) {
	src := storeNamed(t, "bolt")
	fill(t, src, generated(20))
	path, _ := snapshot(t, src)
	a := open(t, path)
	if a.Manifest.Payload == 0 {
		t.Fatal("the manifest does not name the payload's size")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	said := fmt.Sprintf(`"payload": %d`, a.Manifest.Payload)
	lie := fmt.Sprintf(`"payload": %0*d`, len(said)-len(`"payload": `), a.Manifest.Payload-4096) // same length: the tar stays whole
	forged := bytes.Replace(data, []byte(said), []byte(lie), 1)
	if bytes.Equal(forged, data) {
		t.Fatalf("no %s in the archive", said)
	}
	if err := os.WriteFile(path, forged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := backup.Open(path, t.TempDir()); !errors.Is(err, backup.ErrDamaged) || !strings.Contains(err.Error(), "its manifest says") {
		t.Fatalf("Open = %v; want ErrDamaged naming the manifest's size", err)
	}
}
