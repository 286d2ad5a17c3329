package bolt

import (
	"fmt"
	"os"
)

// More of bbolt's format: its page types and elements.
const (
	branchFlag = 0x01
	leafFlag   = 0x02
	bucketFlag = 0x01 // on a leaf element: the value is a bucket
	elemSize   = 16   // branch: pos, ksize uint32, child pgid uint64; leaf: flags, pos, ksize, vsize uint32
	bucketHead = 16   // a bucket value: root pgid, sequence uint64; an inline page follows when root is 0
)

// tree walks every page reachable from the meta's root through the file,
// not the map, checking that each pointer bbolt will follow stays inside
// the file and each key and value inside its page. bbolt trusts them: a
// garbled one points its reads outside the map, a fault that kills the
// process when it happens in its check's goroutine.
type tree struct {
	f       *os.File
	ps, hwm uint64
	seen    map[uint64]bool
	bufs    [][]byte // one per depth, reused: a page's buffer lives while its children are read
}

func checkTree(f *os.File, m meta) error {
	t := &tree{f: f, ps: uint64(m.pageSize), hwm: m.pgid, seen: map[uint64]bool{}}
	return t.page(m.root, 0)
}

func (t *tree) page(id uint64, depth int) error {
	switch {
	case id < 2 || id >= t.hwm:
		return fmt.Errorf("a reference to page %d, outside the file's %d pages", id, t.hwm)
	case t.seen[id]:
		return fmt.Errorf("page %d is referenced twice", id)
	}
	t.seen[id] = true
	if depth == len(t.bufs) {
		t.bufs = append(t.bufs, make([]byte, t.ps))
	}
	p := t.bufs[depth][:t.ps]
	if _, err := t.f.ReadAt(p, int64(id*t.ps)); err != nil {
		return fmt.Errorf("reading page %d: %w", id, err)
	}
	if got := native.Uint64(p); got != id {
		return fmt.Errorf("page %d says it is page %d", id, got)
	}
	if overflow := uint64(native.Uint32(p[12:])); overflow > 0 {
		if overflow >= t.hwm-id {
			return fmt.Errorf("page %d runs %d pages on, past the file's %d", id, overflow, t.hwm)
		}
		p = append(p, make([]byte, overflow*t.ps)...)
		if _, err := t.f.ReadAt(p[t.ps:], int64((id+1)*t.ps)); err != nil {
			return fmt.Errorf("reading page %d: %w", id, err)
		}
		t.bufs[depth] = p
	}
	return t.elements(id, p, depth)
}

// elements checks the elements of page p (id's, or inline in a bucket
// value of id's), following children and buckets.
func (t *tree) elements(id uint64, p []byte, depth int) error {
	flags, count := native.Uint16(p[8:]), uint64(native.Uint16(p[10:]))
	if flags != branchFlag && flags != leafFlag {
		return fmt.Errorf("page %d is neither a branch nor a leaf (flags %#x)", id, flags)
	}
	if pageHeader+count*elemSize > uint64(len(p)) {
		return fmt.Errorf("page %d: %d elements do not fit in it", id, count)
	}
	for i := range count {
		off := pageHeader + i*elemSize
		e := p[off:]
		pos, ksize := uint64(native.Uint32(e[4:])), uint64(native.Uint32(e[8:]))
		if flags == branchFlag {
			pos, ksize = uint64(native.Uint32(e)), uint64(native.Uint32(e[4:]))
		}
		vsize := uint64(0)
		if flags == leafFlag {
			vsize = uint64(native.Uint32(e[12:]))
		}
		if off+pos+ksize+vsize > uint64(len(p)) {
			return fmt.Errorf("page %d: element %d lies outside the page", id, i)
		}
		switch {
		case flags == branchFlag:
			if err := t.page(native.Uint64(e[8:]), depth+1); err != nil {
				return err
			}
		case native.Uint32(e)&bucketFlag != 0:
			if err := t.bucket(id, p[off+pos+ksize:off+pos+ksize+vsize], depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// bucket follows a bucket value: to its root page, or into its inline page.
func (t *tree) bucket(id uint64, v []byte, depth int) error {
	switch {
	case len(v) < bucketHead:
		return fmt.Errorf("page %d: a bucket of %d bytes", id, len(v))
	case native.Uint64(v) != 0:
		return t.page(native.Uint64(v), depth+1)
	case len(v) < bucketHead+pageHeader:
		return fmt.Errorf("page %d: an inline bucket of %d bytes", id, len(v))
	}
	return t.elements(id, v[bucketHead:], depth)
}
