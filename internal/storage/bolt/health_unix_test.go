//go:build unix

package bolt_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

func init() { children["full"] = writeUntilFull }

// writeUntilFull fills a store until the disk is "full": RLIMIT_FSIZE caps
// the file at its size after a first write, so growing it fails as a full
// disk does while every read still answers. It prints the failed write and
// the health, then lifts the cap and does the same for the next write.
func writeUntilFull(path string) {
	ctx := context.Background()
	p, err := bolt.Open(path)
	if err != nil {
		panic(err)
	}
	defer p.Close(ctx)
	s, val := p.For("m"), make([]byte, 200<<10)
	if err := s.Put(ctx, "k0", val); err != nil {
		panic(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		panic(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
	capped := lim
	capped.Cur = uint64(fi.Size()) // bbolt grows the file ahead of its data: the cap meets a later write
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &capped); err != nil {
		panic(err)
	}
	for i := 1; err == nil && i < 1000; i++ {
		err = s.Put(ctx, fmt.Sprintf("k%d", i), val)
	}
	_, rerr := s.Get(ctx, "k0")
	fmt.Printf("full\t%v\t%v\t%v\n", err, rerr, p.Healthy(ctx))
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
	err = s.Put(ctx, "after", []byte("v"))
	fmt.Printf("room again\t%v\t%v\t%v\n", err, nil, p.Healthy(ctx))
}

// A full disk fails every write while reads answer: the store's health
// says so until a write succeeds again.
func TestWritesFailingOnAFullDiskTurnHealthRedUntilOneSucceeds(t *testing.T) {
	out := runChild(t, "full", filepath.Join(t.TempDir(), "bot.db"))
	want := []struct {
		name      string
		writeFail bool
		red       bool
	}{{"full", true, true}, {"room again", false, false}}
	t.Log(out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("the child printed %q", out)
	}
	for i, w := range want {
		f := strings.Split(lines[i], "\t")
		if len(f) != 4 || f[0] != w.name || (f[1] != "<nil>") == !w.writeFail || f[2] != "<nil>" || (f[3] != "<nil>") == !w.red {
			t.Errorf("%s: write %s, read %s, health %s; want the write failed %v, the read ok, red %v", w.name, f[1], f[2], f[3], w.writeFail, w.red)
		}
	}
}
