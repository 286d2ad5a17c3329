package backup_test

import (
	"archive/tar"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
)

// cutLengths are where a copy of an archive of n bytes may stop: inside
// the first header and the manifest, on and beside every tar block edge
// of the start, through the payload, and just before the end.
func cutLengths(n int) []int {
	out := []int{1, 13, 100, 257, 511, 512, 513, 600, 1023, 1024, 1025, 1536, 2048, 2049}
	for i := 1; i < 16; i++ {
		out = append(out, n*i/16)
	}
	return append(out, n-3*512, n-1024-1, n-1024, n-512, n-1)
}

// A copy of one of our snapshots cut short, at any length, is refused as
// truncated: the operator then looks for the whole copy, not for another
// file. A file that is not ours is still refused as not ours.
func TestASnapshotCutShortIsRefusedAsTruncated(t *testing.T) {
	for _, kind := range []struct{ name, store string }{{"file", "bolt"}, {"items", "memory"}} {
		p := storeNamed(t, kind.store)
		fill(t, p, generated(200))
		path, _ := snapshot(t, p)
		whole, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range cutLengths(len(whole)) {
			t.Run(kind.name+" cut at "+strconv.Itoa(n), func(t *testing.T) {
				err := openBytes(t, whole[:n])
				if !errors.Is(err, backup.ErrDamaged) || !strings.Contains(err.Error(), "truncated") || strings.Contains(err.Error(), "not one of ours") {
					t.Fatalf("Open of %d of %d bytes = %v; want ErrDamaged saying truncated", n, len(whole), err)
				}
			})
		}
	}
}

func TestAFileThatIsNotASnapshotIsRefusedAsNotOurs(t *testing.T) {
	for name, data := range map[string]string{
		"a JSON file":                "{\"not\": \"a tar file\"}\n",
		"a text file of many blocks": strings.Repeat("just some text\n", 300),
		"another program's tar":      otherTar(t),
	} {
		t.Run(name, func(t *testing.T) {
			err := openBytes(t, []byte(data))
			if !errors.Is(err, backup.ErrDamaged) || !strings.Contains(err.Error(), "not one of ours") || strings.Contains(err.Error(), "truncated") {
				t.Fatalf("Open = %v; want ErrDamaged saying not one of ours", err)
			}
		})
	}
}

// openBytes opens data as an archive, which must fail, and returns why.
func openBytes(t *testing.T, data []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "copy.tar")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := backup.Open(path, t.TempDir())
	if err == nil {
		a.Close(t.Context())
		t.Fatal("the archive was opened")
	}
	return err
}

// otherTar is a tar file another program wrote: one file, notes.txt.
func otherTar(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	tw := tar.NewWriter(&b)
	body := "hello\n"
	if err := tw.WriteHeader(&tar.Header{Name: "notes.txt", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
