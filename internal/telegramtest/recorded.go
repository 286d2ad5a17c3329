package telegramtest

import (
	"embed"
	"encoding/json"
	"testing"
)

//go:embed testdata/*.json
var recorded embed.FS

// Recorded is one of the recorded updates in testdata (see its README).
func Recorded(t testing.TB, name string) json.RawMessage {
	t.Helper()
	b, err := recorded.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
