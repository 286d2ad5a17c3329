package backup_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
)

// On a terminal a snapshot shows how far it is on one line that rewrites
// itself: items for a walk, megabytes of the whole for the file's copy,
// the last figures ended by a newline.
func TestASnapshotShowsItsProgressOnOneLine(t *testing.T) {
	cases := []struct {
		store string
		last  *regexp.Regexp // the final figures
	}{
		{"memory", regexp.MustCompile(`\rbackup: 3000 items \(\d+ items/s\)   \n$`)},
		{"bolt", regexp.MustCompile(`\rbackup: (\d+\.\d) of (\d+\.\d) MB \(\d+ MB/s\)   \n$`)},
	}
	for _, c := range cases {
		t.Run(c.store, func(t *testing.T) {
			p := storeNamed(t, c.store)
			fill(t, p, generated(3000))
			var out bytes.Buffer
			o := backup.Options{Progress: &out, Every: time.Nanosecond}
			if _, err := backup.Snapshot(context.Background(), p, new(bytes.Buffer), o); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			m := c.last.FindStringSubmatch(got)
			if m == nil || bytes.Count(out.Bytes(), []byte("\r")) < 2 || bytes.Count(out.Bytes(), []byte("\n")) != 1 {
				t.Fatalf("progress %q; want lines rewritten with \\r, ending %v", got, c.last)
			}
			if len(m) == 3 && m[1] != m[2] {
				t.Errorf("the copy ended at %s of %s MB", m[1], m[2])
			}
		})
	}
}

// Progress is for people: a file or a pipe is no terminal, so botctl
// writes none into a log.
func TestAFileOrAPipeIsNoTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{f, w} {
		if backup.IsTerminal(f) {
			t.Errorf("%s counts as a terminal", f.Name())
		}
	}
}
