package backuptest

import (
	"archive/tar"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/backup"
)

// gnuSparseHeader is a GNU tar header of a sparse file name that declares
// realSize bytes and stores one 512-byte block, its last: what a hostile
// archive puts where the file store's payload goes. archive/tar reads
// such entries but writes none, so it is made by hand.
func gnuSparseHeader(name string, realSize int64) []byte {
	blk := make([]byte, 512)
	octal := func(at, n int, v int64) { copy(blk[at:at+n], fmt.Sprintf("%0*o\x00", n-1, v)) }
	base256 := func(at int, v int64) { blk[at] = 0x80; binary.BigEndian.PutUint64(blk[at+4:at+12], uint64(v)) }
	copy(blk, name)
	octal(100, 8, 0o600)
	octal(108, 8, 0)
	octal(116, 8, 0)
	octal(124, 12, 512) // what is stored
	octal(136, 12, 0)
	blk[156] = 'S' // GNU sparse
	copy(blk[257:], "ustar  \x00")
	base256(386, realSize-512) // the one fragment: offset, length
	octal(398, 12, 512)
	base256(483, realSize) // the size it declares
	copy(blk[148:156], "        ")
	var sum int64
	for _, b := range blk {
		sum += int64(b)
	}
	copy(blk[148:], fmt.Sprintf("%06o\x00 ", sum))
	return append(blk, make([]byte, 512)...) // the stored block
}

// HostileArchive writes an archive of a few kilobytes whose store.db
// declares 64 GiB.
func HostileArchive(t testing.TB) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	m, err := json.Marshal(backup.Manifest{Format: backup.Format, Version: backup.Version, Kind: backup.KindBolt, Created: time.Unix(1e9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "manifest.json", Size: int64(len(m)), Mode: 0o600}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(m); err != nil {
		t.Fatal(err)
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	buf.Write(gnuSparseHeader("store.db", 64<<30))
	buf.Write(make([]byte, 1024)) // the end of the archive
	path := filepath.Join(t.TempDir(), "hostile.tar")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
