package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"sort"
	"strings"
)

// history is the life as the digest sees it: one line per delivery, fire
// and call, holding only what the seed decides. Game texts are left out
// (wordle draws its words from the process's own random source), and so
// are store timestamps and error wording.
type history struct {
	trace  io.Writer // every line, when the run is traced (nil: none)
	h      hash.Hash
	users  hash.Hash      // the lines but the operator's (op): what the users saw
	counts map[string]int // what happened, for the summary
}

func newHistory() *history {
	return &history{h: sha256.New(), users: sha256.New(), counts: map[string]int{}}
}

func (h *history) line(format string, args ...any) {
	line := fmt.Sprintf(format, args...) + "\n"
	h.h.Write([]byte(line))
	h.users.Write([]byte(line))
	if h.trace != nil {
		_, _ = io.WriteString(h.trace, line)
	}
}

// note traces what the seed does not decide alone (a game's end can
// hang on wordle's random word): it stays out of the digest.
func (h *history) note(format string, args ...any) {
	if h.trace != nil {
		fmt.Fprintf(h.trace, format+"\n", args...)
	}
}

func (h *history) count(what string, n int) { h.counts[what] += n }

// calls adds a step's calls; hideText leaves their texts out.
func (h *history) calls(cs []Call, hideText bool) {
	for _, c := range cs {
		text := c.Text
		if hideText {
			text = "<game>"
		}
		h.line("  %s %d/%d ok=%t code=%d %q", c.Method, c.Chat, c.Thread, c.OK, c.Code, text)
	}
}

func (h *history) digest() string { return hex.EncodeToString(h.h.Sum(nil))[:16] }

// summary is the counts in a stable order.
func (h *history) summary() string {
	keys := make([]string, 0, len(h.counts))
	for k := range h.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d ", k, h.counts[k])
	}
	return strings.TrimSpace(b.String())
}
