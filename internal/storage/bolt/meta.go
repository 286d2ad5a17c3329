package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's file format (go.etcd.io/bbolt/internal/common), read here from
// the file rather than the map so that a short or garbled file is refused
// before bbolt touches it: a page beyond the end of the file faults, and a
// garbled freelist count makes bbolt allocate without bound.
const (
	pageHeader   = 16 // id uint64, flags uint16, count uint16, overflow uint32
	metaSize     = 64 // magic, version, pageSize, flags uint32; root, sequence, freelist, pgid, txid, checksum uint64
	metaSummed   = 56 // the checksum covers the meta up to itself
	magic        = 0xED0CDAED
	version      = 2
	freelistFlag = 0x10
	noFreelist   = ^uint64(0)
)

var native = binary.NativeEndian // bbolt writes its structs as they lie in memory

// meta is what the cheap check needs of a meta page.
type meta struct {
	pageSize             uint32
	root, freelist, pgid uint64
	txid                 uint64
	valid                bool
}

func parseMeta(page []byte) meta {
	b := page[pageHeader : pageHeader+metaSize]
	m := meta{
		pageSize: native.Uint32(b[8:]),
		root:     native.Uint64(b[16:]), freelist: native.Uint64(b[32:]),
		pgid: native.Uint64(b[40:]), txid: native.Uint64(b[48:]),
	}
	h := fnv.New64a()
	h.Write(b[:metaSummed])
	m.valid = native.Uint32(b) == magic && native.Uint32(b[4:]) == version && h.Sum64() == native.Uint64(b[metaSummed:])
	return m
}

// checkFile reads the meta page bbolt would use (the valid one with the
// higher txid) and checks the file against it: long enough for every page
// it counts, its freelist page a freelist whose count fits it, and every
// page of its tree sound (checkTree).
func checkFile(f *os.File, size int64) error {
	m, err := currentMeta(f, size)
	if err != nil {
		return err
	}
	ps := uint64(m.pageSize)
	switch {
	case ps < 1024 || ps&(ps-1) != 0:
		return fmt.Errorf("its meta page gives a page size of %d", ps)
	case m.pgid < 4 || m.pgid > uint64(size)/ps:
		return fmt.Errorf("the file is %d bytes, its last commit needs %d (%d pages of %d): it was cut short", size, m.pgid*ps, m.pgid, ps)
	case m.freelist != noFreelist: // else a tool's file without one; bbolt rebuilds it
		if err := checkFreelist(f, m); err != nil {
			return err
		}
	}
	return checkTree(f, m)
}

// checkFreelist checks that the meta's freelist page is one, inside the
// file, with a count that fits it: bbolt allocates what the count says.
func checkFreelist(f *os.File, m meta) error {
	ps := uint64(m.pageSize)
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("its freelist page %d lies outside its %d pages", m.freelist, m.pgid)
	}
	head := make([]byte, pageHeader+8)
	if _, err := f.ReadAt(head, int64(m.freelist*ps)); err != nil {
		return fmt.Errorf("reading the freelist page: %w", err)
	}
	id, flags, count, overflow := native.Uint64(head), native.Uint16(head[8:]), uint64(native.Uint16(head[10:])), uint64(native.Uint32(head[12:]))
	if count == 0xFFFF { // the count is too large for the header: it is the first id
		count = native.Uint64(head[pageHeader:]) + 1
	}
	switch {
	case id != m.freelist || flags != freelistFlag:
		return fmt.Errorf("page %d is not the freelist its meta names (id %d, flags %#x)", m.freelist, id, flags)
	case overflow >= m.pgid-m.freelist || count > ((overflow+1)*ps-pageHeader)/8:
		return fmt.Errorf("the freelist page %d is garbled (%d ids over %d pages)", m.freelist, count, overflow+1)
	}
	return nil
}

// currentMeta finds the meta pages as bbolt does: page 0 at offset 0, page
// 1 one page size on (from page 0, else tried from 1 KiB up to 16 MiB).
func currentMeta(f *os.File, size int64) (meta, error) {
	read := func(off int64) (meta, bool) {
		buf := make([]byte, pageHeader+metaSize) // a short read leaves zeros, never the last page's bytes
		if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
			return meta{}, false
		}
		m := parseMeta(buf)
		return m, m.valid
	}
	m0, ok0 := read(0)
	var m1 meta
	ok1 := false
	if ok0 {
		m1, ok1 = read(int64(m0.pageSize))
	} else {
		for off := int64(1024); off < size && off <= 16<<20 && !ok1; off <<= 1 {
			m1, ok1 = read(off)
		}
	}
	switch {
	case !ok0 && !ok1:
		return meta{}, fmt.Errorf("neither meta page is valid: not a bbolt file, or its first pages are garbled")
	case ok0 && (!ok1 || m0.txid >= m1.txid):
		return m0, nil
	}
	return m1, nil
}
