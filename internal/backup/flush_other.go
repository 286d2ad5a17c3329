//go:build !linux || arm

package backup

import "os"

// flushRange leaves the writing to the final sync where sync_file_range
// is not to be had.
func flushRange(*os.File, int64, int64) error { return nil }
