package console

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
)

// A photo is written to a file whose path is printed with the caption and
// the buttons, so a newcomer sees the chart without a token; an edit
// writes a new file and the buttons press the edited message.
func TestAPhotoIsWrittenToAFileAndItsPathPrinted(t *testing.T) {
	var out bytes.Buffer
	m := NewMessenger(&out)
	m.PhotoDir = t.TempDir()
	png := []byte("\x89PNG fake bytes")
	kb := app.MustKeyboard([]app.Button{{Text: "7d", Data: app.Data("coin:", "c", "BTC", "7d")}})
	msg, err := m.SendPhoto(t.Context(), app.Photo{ChatID: ChatID, PNG: png, Name: "chart.png", Caption: "BTC 1d\nsource: Binance", Keyboard: kb})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.EditPhoto(t.Context(), app.PhotoEdit{ChatID: ChatID, MessageID: msg.ID, PNG: png, Name: "chart.png", Caption: "BTC 7d", Keyboard: kb}); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, line := range strings.Split(out.String(), "\n") {
		if _, path, ok := strings.Cut(line, "[photo] "); ok {
			paths = append(paths, path)
		}
	}
	if len(paths) != 2 || paths[0] == paths[1] {
		t.Fatalf("printed photo paths %q; want two different files:\n%s", paths, out.String())
	}
	for _, p := range paths {
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, png) {
			t.Fatalf("%s holds %q (%v); want the photo's bytes", p, got, err)
		}
	}
	for _, want := range []string{"bot> BTC 1d\n", "bot> source: Binance\n", "bot (edits message 1)> BTC 7d\n", "[1] 7d"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, ok := m.press("1")
	if !ok || b.messageID != msg.ID || b.data != "coin:c:BTC:7d" {
		t.Fatalf("button 1 = %+v, %v; want the edited photo's period button", b, ok)
	}
}
