//go:build linux && !arm

package backup

import (
	"fmt"
	"os"
	"syscall"
)

// flushRange writes n bytes of f from off to the disk and waits for them
// (sync_file_range: write, and wait before and after), from the calling
// thread, at its I/O priority.
func flushRange(f *os.File, off, n int64) error {
	const waitWriteWait = 1 | 2 | 4 // SYNC_FILE_RANGE_WAIT_BEFORE | _WRITE | _WAIT_AFTER
	if err := syscall.SyncFileRange(int(f.Fd()), off, n, waitWriteWait); err != nil {
		return fmt.Errorf("backup: writing the archive to disk: %w", err)
	}
	return nil
}
