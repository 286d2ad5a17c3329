package testenv

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// DuplicateKeys returns the keys that occur twice in one object of the
// JSON value line, as paths ("a.b" for b inside a), or an error when line
// is not JSON. encoding/json keeps the last of two equal keys silently,
// while many log pipelines reject such a line or keep the first: a log line
// must name each attribute once.
func DuplicateKeys(line string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var dups []string
	if err := walkJSON(dec, "", &dups); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return dups, nil
}

// walkJSON reads one value from dec, collecting duplicate keys under path.
func walkJSON(dec *json.Decoder, path string, dups *[]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key := path + k.(string)
			if seen[key] {
				*dups = append(*dups, key)
			}
			seen[key] = true
			if err := walkJSON(dec, key+".", dups); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for dec.More() {
			if err := walkJSON(dec, path, dups); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}

// CheckLogLines fails t for every complete line of out (what name wrote)
// that begins with "{" but is not one JSON object naming each key once.
// Other lines (a server's plain text) are not the bot's logs and pass.
func CheckLogLines(t testing.TB, name, out string) {
	t.Helper()
	for line := range strings.Lines(out) {
		if !strings.HasSuffix(line, "\n") || !strings.HasPrefix(line, "{") {
			continue // a line still being written, or not JSON
		}
		dups, err := DuplicateKeys(line)
		switch {
		case err != nil:
			t.Errorf("%s wrote a log line that is not JSON (%v): %s", name, err, strings.TrimSpace(line))
		case len(dups) > 0:
			t.Errorf("%s wrote a log line with the key %s more than once: %s", name, strings.Join(dups, ", "), strings.TrimSpace(line))
		}
	}
}

// CheckLogs makes the test fail, when it ends, for any JSON line of the
// process's output that is not valid or names a key twice (CheckLogLines).
// For the bot's own binaries, whose logs are JSON lines.
func (p *Process) CheckLogs() { p.checkLogs.Store(true) }
