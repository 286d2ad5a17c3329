package backup

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// chunkBytes bounds one items/*.jsonl entry, and so the memory a walk
// holds: tar needs an entry's size before its contents, and a server's
// walk does not know how much is left.
const chunkBytes = 4 << 20

// maxLine bounds one line when reading: the largest value (384 KiB) in
// base64, the longest key, escaped, and the rest.
const maxLine = 1 << 20

// chunker gathers item lines into entries of at most chunkBytes.
type chunker struct {
	a   *archiveWriter
	buf bytes.Buffer
	enc *json.Encoder
	n   int
}

func newChunker(a *archiveWriter) *chunker {
	c := &chunker{a: a}
	c.enc = json.NewEncoder(&c.buf)
	c.enc.SetEscapeHTML(false)
	return c
}

func (c *chunker) add(it storage.Item) error {
	before := c.buf.Len()
	if err := c.enc.Encode(itemLine{NS: it.Namespace, Key: it.Key, At: it.UpdatedAt, Value: it.Value}); err != nil {
		return fmt.Errorf("backup: encoding %s/%q: %w", it.Namespace, it.Key, err)
	}
	if c.buf.Len() <= chunkBytes || before == 0 {
		return nil
	}
	// The line overflows the chunk: the chunk goes without it.
	line := bytes.Clone(c.buf.Bytes()[before:])
	c.buf.Truncate(before)
	if err := c.flush(); err != nil {
		return err
	}
	c.buf.Write(line)
	return nil
}

// flush writes the lines gathered as the next entry.
func (c *chunker) flush() error {
	if c.buf.Len() == 0 {
		return nil
	}
	c.n++
	if err := c.a.entry(fmt.Sprintf("%s%06d.jsonl", itemsDir, c.n), c.buf.Bytes()); err != nil {
		return err
	}
	c.buf.Reset()
	return nil
}

// readLines decodes the item lines of one entry, in order.
func readLines(r io.Reader, fn func(storage.Item) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		var l itemLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			if rerr := sc.Err(); rerr != nil {
				return readFailed("an item line", rerr) // the last line of a cut entry
			}
			return damaged("an item line: %v", err)
		}
		if l.Value == nil {
			l.Value = []byte{} // an empty value is present (the JSON is "")
		}
		if err := fn(storage.Item{Namespace: l.NS, Key: l.Key, Value: l.Value, UpdatedAt: l.At}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return readFailed("an item line", err)
	}
	return nil
}
