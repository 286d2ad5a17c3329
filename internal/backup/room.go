package backup

import (
	"errors"
	"fmt"
	"os"
)

// ErrNoRoom refuses to unpack a payload where it does not fit: a full disk
// would stop the restore part way, and fill a disk the system needs.
var ErrNoRoom = errors.New("backup: no room to unpack the archive")

// freeBytes is the space left in dir for an unprivileged writer; -1 when
// the system does not say. A variable so a test can make a disk small.
var freeBytes = diskFree

// roomFor fails unless dir ("": the system's temporary directory) has
// room for size bytes.
func roomFor(dir string, size int64) error {
	if dir == "" {
		dir = os.TempDir()
	}
	free, err := freeBytes(dir)
	if err != nil {
		return fmt.Errorf("backup: the room in %s: %w", dir, err)
	}
	if free >= 0 && free < size {
		return fmt.Errorf("%w: its file is %d bytes, %s has %d free; give another directory with -tmp", ErrNoRoom, size, dir, free)
	}
	return nil
}
