package app

import (
	"html"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// MaxMessageUnits is Telegram's limit on a message's text, in UTF-16 code
// units (after entity parsing; counting before it is the safe side).
const MaxMessageUnits = 4096

// maxQuoted bounds how much of a user's input a reply repeats.
const maxQuoted = 32

// Quote is how a reply repeats what a user typed: quoted, and at most 32
// characters of it, so no input can make a reply longer than Telegram takes
// or fill a chat with an echo.
func Quote(s string) string {
	r := []rune(s)
	if len(r) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(string(r[:maxQuoted])) + "…"
}

var tags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[a-zA-Z][^>]*>`) })

// Fit is the one rule for a message longer than Telegram accepts: it is cut
// to the limit with "…" at the end, never sent as is. HTML cut in the
// middle could leave a tag open (Telegram refuses the whole message), so a
// long HTML message goes as its plain text.
func Fit(text string, mode models.ParseMode) (string, models.ParseMode) {
	return fitUnits(text, mode, MaxMessageUnits)
}

// fitUnits is Fit's rule for a limit of limit UTF-16 code units.
func fitUnits(text string, mode models.ParseMode, limit int) (string, models.ParseMode) {
	if utf16Len(text) <= limit {
		return text, mode
	}
	if mode == models.ParseModeHTML {
		text, mode = html.UnescapeString(tags().ReplaceAllString(text, "")), ""
		if utf16Len(text) <= limit {
			return text, mode
		}
	}
	units, end := 0, 0
	for i, r := range text {
		n := utf16.RuneLen(r)
		if units+n > limit-1 { // room for the ellipsis (one unit)
			break
		}
		// The width in text, not of r: an invalid byte is one byte here but
		// r is then U+FFFD, three bytes.
		_, width := utf8.DecodeRuneInString(text[i:])
		units, end = units+n, i+width
	}
	return text[:end] + "…", mode
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
