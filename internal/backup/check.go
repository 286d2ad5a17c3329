package backup

import (
	"archive/tar"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// maxMeta bounds the manifest and the summary.
const maxMeta = 1 << 20

// checked is what a whole read of an archive found.
type checked struct {
	Manifest Manifest
	Summary  Summary
	counts   map[string]int64 // items per namespace, counted (kind items)
}

// check reads the archive r, of size bytes, to its end, hashing it, and
// fails with ErrDamaged unless it is whole: the entries in order, the
// checksum and the size the summary gives, and (kind items) every line an
// item and as many per namespace as it says. A bolt payload goes to
// boltOut, told its size first, as it is read (the caller then opens it).
// No entry is read past a size known to be true (bounded).
func check(r io.Reader, size int64, boltOut func(size int64) (io.Writer, error)) (*checked, error) {
	first, err := firstBlock(r)
	if err != nil {
		return nil, err
	}
	read := &countReader{r: io.MultiReader(bytes.NewReader(first), r)}
	tr := tar.NewReader(read)
	h := crc32.NewIEEE()
	var c checked
	data, err := next(tr, h, manifestName)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &c.Manifest); err != nil {
		return nil, damaged("%s: %v", manifestName, err)
	}
	if err := c.Manifest.check(); err != nil {
		return nil, err
	}
	var bytes int64 = int64(len(data))
	hdr, err := tr.Next()
	switch {
	case err != nil:
		return nil, truncated(err)
	case c.Manifest.Kind == KindBolt:
		if hdr.Name != boltName {
			return nil, damaged("%s where %s should be", hdr.Name, boltName)
		}
		if p := c.Manifest.Payload; p != 0 && hdr.Size != p {
			return nil, damaged("%s holds %d bytes, its manifest says %d", boltName, hdr.Size, p)
		}
		if left := size - read.n; hdr.Size > left && hdr.Typeflag == tar.TypeReg {
			// Our manifest, and a payload longer than what is left of the
			// file: a copy that stopped in it.
			return nil, damaged("%s declares %d bytes and the file holds %d more: truncated (a copy cut short, a full disk?)", boltName, hdr.Size, max(left, 0))
		}
		if err := bounded(hdr, size); err != nil {
			return nil, err
		}
		out, err := boltOut(hdr.Size)
		if err != nil {
			return nil, err
		}
		n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(tr, hdr.Size))
		if bytes += n; err != nil {
			return nil, readFailed(boltName, err)
		}
		hdr, err = tr.Next()
		if err != nil {
			return nil, truncated(err)
		}
	default:
		c.counts = map[string]int64{}
		for ; err == nil && strings.HasPrefix(hdr.Name, itemsDir); hdr, err = tr.Next() {
			if err := bounded(hdr, chunkBytes); err != nil {
				return nil, err
			}
			cr := &countReader{r: io.TeeReader(tr, h)}
			lerr := readLines(cr, func(it storage.Item) error { c.counts[it.Namespace]++; return nil })
			if bytes += cr.n; lerr != nil {
				return nil, fmt.Errorf("%s: %w", hdr.Name, lerr)
			}
		}
		if err != nil {
			return nil, truncated(err)
		}
	}
	if hdr.Name != summaryName {
		return nil, damaged("%s where %s should be", hdr.Name, summaryName)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if data, err = readEntry(tr, summaryName); err != nil {
		return nil, err
	}
	summaryEnd := (read.n + blockSize - 1) / blockSize * blockSize
	if err := json.Unmarshal(data, &c.Summary); err != nil {
		return nil, damaged("%s: %v", summaryName, err)
	}
	switch _, err := tr.Next(); {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, truncated(err) // the end-of-archive blocks are cut
	case err == nil:
		return nil, damaged("something follows %s", summaryName)
	case err != io.EOF:
		return nil, damaged("after %s: %v", summaryName, err)
	case read.n < summaryEnd+2*blockSize:
		// The reader ends quietly where a block ends, so a copy that
		// stopped in the two closing zero blocks is seen only here.
		return nil, truncated(io.ErrUnexpectedEOF)
	}
	switch {
	case c.Summary.Bytes != bytes:
		return nil, damaged("it holds %d bytes of contents, its summary says %d", bytes, c.Summary.Bytes)
	case c.Summary.CRC32 != sum:
		return nil, damaged("its CRC-32 is %s, its summary says %s: it changed since it was written", sum, c.Summary.CRC32)
	case c.Summary.Items != total(c.Summary.Namespaces):
		return nil, damaged("its summary counts %d items, and %d by namespace", c.Summary.Items, total(c.Summary.Namespaces))
	case c.counts != nil && !maps.Equal(c.counts, c.Summary.Namespaces):
		return nil, damaged("its items per namespace %v differ from its summary's %v", c.counts, c.Summary.Namespaces)
	}
	return &c, nil
}

// bounded refuses an entry that is not a plain file of at most max bytes:
// a sparse entry can declare gigabytes of zeros in a few kilobytes of
// archive, and a bolt payload is written out to disk as it is read. The
// payload is bounded by the archive's own size, item lines by the chunk
// they are written in.
func bounded(hdr *tar.Header, max int64) error {
	switch {
	case hdr.Size > max:
		return damaged("%s declares %d bytes, more than the %d it can hold: not one of ours", hdr.Name, hdr.Size, max)
	case hdr.Typeflag != tar.TypeReg:
		return damaged("%s is not a plain file (tar type %q): not one of ours", hdr.Name, hdr.Typeflag)
	}
	return nil
}

// blockSize is tar's block: headers, and each entry's padded contents.
const blockSize = 512

// firstBlock reads the archive's first header block. A file shorter than
// one is ours cut short when what it holds starts as our first header does
// (manifest.json's name), and another file otherwise.
func firstBlock(r io.Reader) ([]byte, error) {
	b := make([]byte, blockSize)
	n, err := io.ReadFull(r, b)
	switch {
	case err == io.EOF:
		return nil, damaged("it is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		ours := []byte(manifestName + "\x00")
		if bytes.HasPrefix(ours, b[:n]) || bytes.HasPrefix(b[:n], ours) {
			return nil, damaged("it ends in its first header, after %d bytes: truncated (a copy cut short, a full disk?)", n)
		}
		return nil, damaged("%d bytes, too short for a tar archive: not one of ours", n)
	case err != nil:
		return nil, readFailed(manifestName, err)
	}
	return b, nil
}

func total(counts map[string]int64) (n int64) {
	for _, c := range counts {
		n += c
	}
	return n
}

// next reads the next entry, which must be name, hashing its contents.
func next(tr *tar.Reader, h hash.Hash, name string) ([]byte, error) {
	hdr, err := tr.Next()
	switch {
	case err == io.EOF:
		return nil, damaged("it is empty")
	case err != nil:
		return nil, damaged("not a tar archive (%v): not one of ours", err)
	case hdr.Name != name:
		return nil, damaged("it starts with %s, not %s: not one of ours", hdr.Name, name)
	}
	data, err := readEntry(tr, name)
	h.Write(data)
	return data, err
}

func readEntry(tr *tar.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(tr, maxMeta+1))
	switch {
	case err != nil:
		return nil, readFailed(name, err)
	case len(data) > maxMeta:
		return nil, damaged("%s is over %d bytes", name, maxMeta)
	}
	return data, nil
}

// truncated names what a missing entry means.
func truncated(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return damaged("it ends before its summary: truncated (a copy cut short, a full disk?)")
	}
	return damaged("%v", err)
}

func readFailed(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("backup: %s: %w", name, err) // the disk, not the archive
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return damaged("%s is cut short: truncated (a copy cut short, a full disk?)", name)
	}
	return damaged("%s: %v", name, err)
}

// countReader counts what is read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
