package backup

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// chunkBytes bounds one items/*.jsonl entry, and so the memory a walk
// holds: tar needs an entry's size before its contents, and a server's
// walk does not know how much is left.
const chunkBytes = 4 << 20

// maxLine bounds one line when reading: the largest value (384 KiB) in
// base64, the longest key, escaped, and the rest.
const maxLine = 1 << 20

// chunker gathers item lines into entries of at most chunkBytes, in one
// buffer allocated once.
type chunker struct {
	a    *archiveWriter
	buf  []byte
	line []byte
	n    int
}

func newChunker(a *archiveWriter) *chunker {
	return &chunker{a: a, buf: make([]byte, 0, chunkBytes), line: make([]byte, 0, 64<<10)}
}

func (c *chunker) add(it storage.Item) error {
	c.line = appendLine(c.line[:0], it)
	if len(c.buf)+len(c.line) > chunkBytes {
		if err := c.flush(); err != nil {
			return err
		}
	}
	c.buf = append(c.buf, c.line...)
	return nil
}

// flush writes the lines gathered as the next entry.
func (c *chunker) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	c.n++
	if err := c.a.entry(fmt.Sprintf("%s%06d.jsonl", itemsDir, c.n), c.buf); err != nil {
		return err
	}
	c.buf = c.buf[:0]
	return nil
}

// appendLine appends it as an itemLine, as encoding/json would write one
// (which reads it back), without reflection: the line is written for
// every item of a store.
func appendLine(dst []byte, it storage.Item) []byte {
	dst = append(dst, `{"ns":`...)
	dst = appendString(dst, it.Namespace)
	dst = append(dst, `,"key":`...)
	dst = appendString(dst, it.Key)
	dst = append(dst, `,"at":`...)
	dst = strconv.AppendInt(dst, it.UpdatedAt, 10)
	dst = append(dst, `,"value":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, it.Value)
	return append(dst, "\"}\n"...)
}

// appendString appends s as a JSON string. s is valid UTF-8 (the key
// rules), so only the quote, the backslash and control bytes need escapes.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '"' || b == '\\':
			dst = append(dst, '\\', b)
		case b < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
		default:
			dst = append(dst, b)
		}
	}
	return append(dst, '"')
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
