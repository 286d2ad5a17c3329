package backup

import (
	"archive/tar"
	"context"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"time"
)

// archiveWriter writes the entries of an archive in order, hashing the
// contents of each before the summary.
type archiveWriter struct {
	ctx   context.Context
	tw    *tar.Writer
	h     hash.Hash
	bytes int64
	at    time.Time // every entry's modification time: the snapshot's
}

// newArchiveWriter starts an archive with its manifest.
func newArchiveWriter(ctx context.Context, w io.Writer, m Manifest) (*archiveWriter, error) {
	a := &archiveWriter{ctx: ctx, tw: tar.NewWriter(w), h: crc32.NewIEEE(), at: m.Created}
	return a, a.entry(manifestName, marshal(m))
}

// begin starts an entry of size bytes and returns where its contents go.
// The caller writes exactly size bytes (tar needs the size up front).
func (a *archiveWriter) begin(name string, size int64) (io.Writer, error) {
	if err := a.ctx.Err(); err != nil {
		return nil, err
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o600, ModTime: a.at}
	if err := a.tw.WriteHeader(hdr); err != nil {
		return nil, fmt.Errorf("backup: writing %s: %w", name, err)
	}
	return contents{a}, nil
}

// contents hashes what it writes into the current entry, and stops when
// the snapshot's context ends (a cron run past its timeout).
type contents struct{ a *archiveWriter }

func (c contents) Write(p []byte) (int, error) {
	if err := c.a.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.a.tw.Write(p)
	c.a.h.Write(p[:n])
	c.a.bytes += int64(n)
	if err != nil {
		return n, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}

// copyBuffer is what ReadFrom moves at a time: a 1 MiB read and write
// where io.Copy's 32 KiB would take 32 system calls of each.
const copyBuffer = 1 << 20

// ReadFrom copies r into the entry (bbolt's WriteTo copies the file's
// pages through it).
func (c contents) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, copyBuffer)
	var n int64
	for {
		m, err := io.ReadFull(r, buf)
		if m > 0 {
			w, werr := c.Write(buf[:m])
			if n += int64(w); werr != nil {
				return n, werr
			}
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// entry writes a whole small entry.
func (a *archiveWriter) entry(name string, data []byte) error {
	w, err := a.begin(name, int64(len(data)))
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// finish completes s with the payload's size and checksum, writes it as
// the last entry and ends the archive.
func (a *archiveWriter) finish(s *Summary, now func() time.Time) error {
	s.Bytes, s.CRC32, s.Finished = a.bytes, hex.EncodeToString(a.h.Sum(nil)), now().UTC()
	data := marshal(s)
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: summaryName, Size: int64(len(data)), Mode: 0o600, ModTime: a.at}
	if err := a.tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("backup: writing %s: %w", summaryName, err)
	}
	if _, err := a.tw.Write(data); err != nil {
		return fmt.Errorf("backup: writing %s: %w", summaryName, err)
	}
	if err := a.tw.Close(); err != nil {
		return fmt.Errorf("backup: ending the archive: %w", err)
	}
	return nil
}
