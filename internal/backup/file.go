package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// partialSuffix marks an archive being written. It becomes the archive by
// a rename once whole and on disk, so a name without it is always a whole
// archive, whatever happened while writing.
const partialSuffix = ".partial"

// WriteFile takes a snapshot of p into the file path: first into a
// partial file beside it, synced to disk, then renamed. A failed snapshot
// (a full disk) removes its partial file and leaves path as it was. In
// the background (o.Background) all of it, the sync too, runs on a thread
// of the lowest priority.
func WriteFile(ctx context.Context, p storage.KVProvider, path string, o Options) (*Summary, error) {
	if !o.Background {
		return writeFile(ctx, p, path, o)
	}
	var s *Summary
	err := inBackground(func() (err error) {
		s, err = writeFile(ctx, p, path, o)
		return err
	})
	return s, err
}

func writeFile(ctx context.Context, p storage.KVProvider, path string, o Options) (*Summary, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "." // beside path: CreateTemp's default, the system's temporary directory, may be another disk
	}
	f, err := os.CreateTemp(dir, "."+base+".*"+partialSuffix)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	s, err := writeSynced(ctx, p, f, o)
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("backup: %s: %w", path, err)
	}
	return s, nil
}

// writeSynced writes the snapshot into f, syncs and closes it.
func writeSynced(ctx context.Context, p storage.KVProvider, f *os.File, o Options) (*Summary, error) {
	s, err := Snapshot(ctx, p, f, o)
	if err == nil {
		err = f.Sync() // on disk before the rename makes it an archive
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return s, err
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// isPartial reports whether a file name is an archive being written.
func isPartial(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, partialSuffix)
}
