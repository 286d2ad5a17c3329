package bolt

import (
	"errors"
	"fmt"
	"os"
	"time"

	bbolt "go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"
)

// ErrLocked: another process has the file open.
var ErrLocked = errors.New("bolt: the file is in use by another process (one bot, or the migrator, at a time)")

// lockWait is how long Open waits for the file's lock.
const lockWait = 2 * time.Second

// Open opens (creating, with mode 0600) the file at path.
func Open(path string) (*Provider, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: lockWait})
	switch {
	case errors.Is(err, bberrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	case err != nil:
		return nil, fmt.Errorf("bolt: open %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil { // an older file may be wider open
		db.Close()
		return nil, fmt.Errorf("bolt: %s: %w", path, err)
	}
	return &Provider{db: db, path: path, now: time.Now}, nil
}
