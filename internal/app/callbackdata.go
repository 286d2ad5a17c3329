package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrCallbackData is what every refusal of ParseCallback wraps: data that
// is not what the module's buttons carry (forged, or from an older
// button). A handler answers it with StaleButtonToast, never an error.
var ErrCallbackData = errors.New("callback data")

// callbackSep separates a button's fields; a field cannot hold it.
const callbackSep = ":"

// CallbackData is a button's callback data in the one format of the
// module API: the module's callback prefix (its Callback.Prefix), then the
// fields joined by ":", e.g. "wordle:" and {"y", "42", "7"} is
// "wordle:y:42:7". Every field is non-empty valid UTF-8 without ":", and
// the whole fits in MaxCallbackData, so what Encode builds ParseCallback
// reads back as it was, and what ParseCallback accepts Encode builds again
// byte for byte.
type CallbackData struct {
	Prefix string
	Fields []string
}

// Data is the CallbackData of prefix and fields, for a Button.
func Data(prefix string, fields ...string) CallbackData {
	return CallbackData{Prefix: prefix, Fields: fields}
}

// Encode is d as a button's data. It refuses what Telegram or ParseCallback
// would not take back: an empty prefix, an empty field, a field holding
// ":", text that is not UTF-8, more than MaxCallbackData bytes.
func (d CallbackData) Encode() (string, error) {
	if d.Prefix == "" || !utf8.ValidString(d.Prefix) {
		return "", fmt.Errorf("%w: prefix %q is empty or not UTF-8", ErrCallbackData, d.Prefix)
	}
	for i, f := range d.Fields {
		if f == "" || strings.Contains(f, callbackSep) || !utf8.ValidString(f) {
			return "", fmt.Errorf("%w: field %d %q is empty, holds %q or is not UTF-8", ErrCallbackData, i, f, callbackSep)
		}
	}
	s := d.Prefix + strings.Join(d.Fields, callbackSep)
	if len(s) > MaxCallbackData {
		return "", fmt.Errorf("%w: %q is %d bytes, over %d", ErrCallbackData, s, len(s), MaxCallbackData)
	}
	return s, nil
}

// ParseCallback reads data that Encode built for prefix, holding between
// least and most fields. Callback data comes from a client, so anything
// else (another prefix, another field count, an empty field, over
// MaxCallbackData bytes, not UTF-8) is an error wrapping ErrCallbackData.
func ParseCallback(prefix, data string, least, most int) (CallbackData, error) {
	switch {
	case len(data) > MaxCallbackData:
		return CallbackData{}, fmt.Errorf("%w: %d bytes, over %d", ErrCallbackData, len(data), MaxCallbackData)
	case prefix == "" || !utf8.ValidString(prefix) || !utf8.ValidString(data):
		return CallbackData{}, fmt.Errorf("%w: %q or its prefix %q is not UTF-8", ErrCallbackData, data, prefix)
	case !strings.HasPrefix(data, prefix):
		return CallbackData{}, fmt.Errorf("%w: %q does not start with %q", ErrCallbackData, data, prefix)
	}
	d := CallbackData{Prefix: prefix}
	if rest := data[len(prefix):]; rest != "" {
		d.Fields = strings.Split(rest, callbackSep)
	}
	if n := len(d.Fields); n < least || n > most {
		return CallbackData{}, fmt.Errorf("%w: %q has %d fields, want %d to %d", ErrCallbackData, data, n, least, most)
	}
	for i, f := range d.Fields {
		if f == "" {
			return CallbackData{}, fmt.Errorf("%w: %q: field %d is empty", ErrCallbackData, data, i)
		}
	}
	return d, nil
}

// Int is field i as a decimal integer, written as strconv.FormatInt
// writes it (no sign on a positive number, no leading zero), so an id
// reads back only from the one form a button carries.
func (d CallbackData) Int(i int) (int64, error) {
	if i < 0 || i >= len(d.Fields) {
		return 0, fmt.Errorf("%w: no field %d in %d", ErrCallbackData, i, len(d.Fields))
	}
	n, err := strconv.ParseInt(d.Fields[i], 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != d.Fields[i] {
		return 0, fmt.Errorf("%w: field %d %q is not an integer", ErrCallbackData, i, d.Fields[i])
	}
	return n, nil
}
