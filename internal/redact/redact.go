// Package redact keeps credentials out of error strings. Drivers sometimes
// echo what they were given (a connection string, a host with userinfo) into
// their errors; wrapping such an error with Error removes every secret from
// its message while errors.Is and errors.As still see the original chain.
package redact

import (
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Mask replaces each secret in messages.
const Mask = "[REDACTED]"

// Error returns err with every secret removed from its message. Secrets
// shorter than 3 bytes are ignored: masking them would shred ordinary text and
// they protect nothing.
func Error(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	return &redacted{msg: String(err.Error(), secrets...), err: err}
}

// String removes every secret from s, in every form it can be written in:
// as is, escaped as in a quoted or JSON string, and URL-encoded. Longest
// first, so that a secret that contains another is masked whole.
func String(s string, secrets ...string) string { return NewSet(secrets...).String(s) }

// Set is secrets with their forms worked out once, for a caller that masks
// many texts with the same secrets: the log handler masks every attribute
// of every line, and working out the forms (a JSON encoding among them)
// per attribute was a third of the Lambda bootstrap's set-up.
type Set struct{ forms []string }

// NewSet works out the forms of secrets (see String).
func NewSet(secrets ...string) *Set {
	ss := make([]string, 0, len(secrets))
	for _, sec := range secrets {
		if len(sec) >= 3 {
			ss = append(ss, forms(sec)...)
		}
	}
	sort.Slice(ss, func(i, j int) bool { return len(ss[i]) > len(ss[j]) })
	return &Set{forms: ss}
}

// String removes every secret of the set from s, as String does.
func (x *Set) String(s string) string {
	for _, sec := range x.forms {
		s = strings.ReplaceAll(s, sec, Mask)
	}
	return s
}

// forms are the ways sec can appear in a log line or an error.
func forms(sec string) []string {
	quoted := strconv.Quote(sec)
	js, _ := json.Marshal(sec)
	out := []string{sec}
	for _, f := range []string{quoted[1 : len(quoted)-1], string(js[1 : len(js)-1]), url.QueryEscape(sec), url.PathEscape(sec)} {
		if f != sec && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

// URLSecrets returns the parts of a connection string that must never be
// shown: the whole string, its userinfo, and the password both as written and
// percent-decoded. It parses by hand because multi-host MongoDB URLs
// ("mongodb://u:p@h1:1,h2:2/db") are not valid net/url URLs.
func URLSecrets(raw string) []string {
	out := []string{raw}
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return out
	}
	userinfo := rest[:at]
	out = append(out, userinfo)
	if _, pass, ok := strings.Cut(userinfo, ":"); ok {
		out = append(out, pass)
		if dec, err := url.PathUnescape(pass); err == nil && dec != pass {
			out = append(out, dec)
		}
	}
	return out
}
