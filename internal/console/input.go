package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// MaxLine bounds a typed line; a longer one is skipped with a note, not
// the end of the session (Telegram's messages hold 4096 characters anyway).
const MaxLine = 64 << 10

// line is one typed line, or the note that one was too long.
type line struct {
	text    string
	tooLong bool
}

// readLines sends each line of in, holding at most MaxLine bytes of one: a
// longer line is read to its end and sent as tooLong.
func readLines(ctx context.Context, in io.Reader, lines chan<- line) error {
	r := bufio.NewReader(in)
	var buf []byte
	tooLong := false
	for {
		chunk, more, err := r.ReadLine()
		switch {
		case errors.Is(err, io.EOF) && len(buf) == 0 && !tooLong:
			return nil
		case errors.Is(err, io.EOF):
			// The rest of a last line without a newline, cut at a buffer's end.
		case err != nil:
			return fmt.Errorf("console: reading input: %w", err)
		}
		if !tooLong && len(buf)+len(chunk) > MaxLine {
			tooLong, buf = true, buf[:0]
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if more {
			continue
		}
		select {
		case lines <- line{text: string(buf), tooLong: tooLong}:
		case <-ctx.Done():
			return nil
		}
		buf, tooLong = buf[:0], false
	}
}
