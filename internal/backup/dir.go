package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Dir is the directory of scheduled snapshots (BACKUP_DIR): one archive a
// run, named by the time it started, the newest Keep kept.
type Dir struct {
	Path string
	Keep int
}

// An archive's name in a Dir: the prefix, its UTC start, the extension.
// The time sorts as the name does.
const (
	namePrefix = "miti99bot-"
	nameLayout = "20060102T150405.000Z"
	nameExt    = ".tar"
)

// staleAfter: a partial file this old was left by a run that died (a
// run's timeout is far shorter); younger, it may be one being written.
const staleAfter = time.Hour

// Take writes a snapshot of p into a new archive of the directory, then
// removes the oldest archives beyond Keep. A failed snapshot (a full
// disk) removes only its own partial file: the archives already there
// stay, and the error is the run's.
func (d Dir) Take(ctx context.Context, p storage.KVProvider, o Options) (string, *Summary, error) {
	o.defaults()
	path := filepath.Join(d.Path, namePrefix+o.Now().UTC().Format(nameLayout)+nameExt)
	s, err := WriteFile(ctx, p, path, o)
	if err != nil {
		return "", nil, err
	}
	if err := d.prune(o.Now()); err != nil {
		return path, s, fmt.Errorf("backup: %s written, but the old ones were not removed: %w", path, err)
	}
	return path, s, nil
}

// Archives are the whole archives of the directory, oldest first.
func (d Dir) Archives() ([]string, error) {
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	var out []string
	for _, e := range entries {
		if _, ok := takenAt(e.Name()); ok && e.Type().IsRegular() {
			out = append(out, filepath.Join(d.Path, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Newest is the newest whole archive and when it was taken; ok is false
// when the directory holds none.
func (d Dir) Newest() (path string, at time.Time, ok bool, err error) {
	all, err := d.Archives()
	if err != nil || len(all) == 0 {
		return "", time.Time{}, false, err
	}
	path = all[len(all)-1]
	at, _ = takenAt(filepath.Base(path))
	return path, at, true, nil
}

// takenAt reads the time from an archive's name.
func takenAt(name string) (time.Time, bool) {
	stamp, ok := strings.CutPrefix(name, namePrefix)
	if stamp, ok = strings.CutSuffix(stamp, nameExt); !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(nameLayout, stamp)
	return t, err == nil
}

// prune removes the archives beyond the newest Keep, and partial files
// left by runs that died.
func (d Dir) prune(now time.Time) error {
	all, err := d.Archives()
	if err != nil {
		return err
	}
	var errs []error
	for _, path := range all[:max(0, len(all)-max(d.Keep, 1))] {
		errs = append(errs, os.Remove(path))
	}
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && isPartial(e.Name()) && now.Sub(info.ModTime()) > staleAfter {
			errs = append(errs, os.Remove(filepath.Join(d.Path, e.Name())))
		}
	}
	return errors.Join(errs...)
}
