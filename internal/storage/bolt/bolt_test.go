package bolt_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func open(t *testing.T, path string) *bolt.Provider {
	t.Helper()
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(t.Context()) })
	return p
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.KVProvider { return open(t, filepath.Join(t.TempDir(), "bot.db")) })
}

func TestTheFileIsPrivateAndLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	open(t, path)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if _, err := bolt.Open(path); !errors.Is(err, bolt.ErrLocked) {
		t.Fatalf("a second open = %v, want ErrLocked", err)
	}
}

func TestWritesSurviveAReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.For("m").Put(t.Context(), "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if v, err := open(t, path).For("m").Get(t.Context(), "k"); err != nil || string(v) != "v" {
		t.Fatalf("after a reopen: %q, %v", v, err)
	}
}

// Only a write bbolt could not make (a full disk) turns health red: the
// store's rules refusing one (a conflict) leave it green.
func TestARefusedWriteLeavesHealthGreen(t *testing.T) {
	p := open(t, filepath.Join(t.TempDir(), "bot.db"))
	s := p.For("m")
	if err := s.CompareAndSwap(t.Context(), "k", []byte("not there"), []byte("v")); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("CAS = %v, want a conflict", err)
	}
	if err := p.Healthy(t.Context()); err != nil {
		t.Fatalf("Healthy after a conflict = %v", err)
	}
}
