package backup

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// An item line reads back as the item it was written from, whatever the
// key holds that the contract allows (quotes, backslashes, control
// characters, any UTF-8), through encoding/json: the reader's decoder.
func FuzzAnItemLineReadsBackAsTheItem(f *testing.F) {
	for _, seed := range []struct {
		key   string
		value []byte
		at    int64
	}{
		{"chat:-100", []byte(`{"a":1}`), 1_764_417_600_123_456_789},
		{"\x01\t\n\"\\\u2028<>&é😀", []byte{0, 0xff}, -1},
		{"k", []byte{}, 0},
	} {
		f.Add(seed.key, seed.value, seed.at)
	}
	f.Fuzz(func(t *testing.T, key string, value []byte, at int64) {
		it := storage.Item{Namespace: "m-1_x", Key: key, Value: value, UpdatedAt: at}
		if it.Check() != nil {
			return // no snapshot writes an item the contract rejects
		}
		line := appendLine(nil, it)
		if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("not one line: %q", line)
		}
		var got []storage.Item
		if err := readLines(strings.NewReader(string(line)), func(it storage.Item) error { got = append(got, it); return nil }); err != nil {
			t.Fatal(err)
		}
		var l itemLine
		if err := json.Unmarshal(line, &l); err != nil || len(got) != 1 || got[0].Key != key || !bytes.Equal(got[0].Value, value) ||
			got[0].UpdatedAt != at || got[0].Namespace != it.Namespace {
			t.Fatalf("%q read back as %+v (%v)", line, got, err)
		}
	})
}
