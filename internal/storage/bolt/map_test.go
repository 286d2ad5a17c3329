package bolt_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// A write that grows the file far past its size goes on while a snapshot's
// copy holds its read transaction: bbolt remaps the file only when a write
// outgrows the map, and the map starts at 1 GiB. (With bbolt's own first
// map, the file's size, the write waits for the copy to end.)
func TestAWriteThatGrowsTheFileDoesNotWaitForASnapshotsCopy(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a 32-bit process keeps bbolt's own map")
	}
	p, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(t.Context())
	err = p.HotCopy(func(bolt.Copy) error {
		done := make(chan error, 1)
		go func() { done <- load(t, p, 0, 16) }() // 4 MiB on a file of 32 KiB
		select {
		case err := <-done:
			return err
		case <-time.After(time.Minute): // a deadlock's detector, not a time bound: it takes milliseconds
			return errors.New("the write waits for the copy's read transaction")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// load writes n items of 256 KiB, keys from first on, in one commit.
func load(t testing.TB, p *bolt.Provider, first, n int) error {
	t.Helper()
	items := make([]storage.Item, n)
	for i := range items {
		items[i] = storage.Item{Namespace: "bulk", Key: fmt.Sprintf("k:%08d", first+i), Value: make([]byte, 256<<10), UpdatedAt: int64(first + i + 1)}
	}
	_, err := p.Load(t.Context(), items, storage.LoadOptions{})
	return err
}
