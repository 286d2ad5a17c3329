//go:build !windows && !plan9 && !solaris && !aix && !android

package bolt

import (
	"os"
	"syscall"
	"time"
)

// lock takes the file's exclusive flock as bbolt does, waiting up to
// lockWait for another process to let it go. bbolt, given this descriptor,
// then takes the same lock again at once.
func lock(f *os.File) error {
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err != syscall.EWOULDBLOCK:
			return err
		case time.Now().After(deadline):
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond) // flock has no timeout of its own; bbolt polls alike
	}
}
