package console

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

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
	b, refusal, ok := m.press("1")
	if !ok || refusal != "" || b.messageID != msg.ID || b.data != "coin:c:BTC:7d" {
		t.Fatalf("button 1 = %+v, %v; want the edited photo's period button", b, ok)
	}
}

// The pictures a session wrote for display are removed when it quits,
// however it quits: at the input's end (Ctrl-D) or at its context's
// (Ctrl-C, SIGTERM), Close coming after Run as the runtime calls it.
func TestThePhotosAreRemovedWhenTheConsoleQuits(t *testing.T) {
	tests := []struct {
		name string
		quit func(cancel context.CancelFunc, w *io.PipeWriter)
	}{
		{"at the end of the input", func(_ context.CancelFunc, w *io.PipeWriter) { w.Close() }},
		{"when its context ends", func(cancel context.CancelFunc, _ *io.PipeWriter) { cancel() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var out bytes.Buffer
			m := NewMessenger(&out)
			m.PhotoDir = dir
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			r, w := io.Pipe()
			defer r.Close()
			go func() { _, _ = io.WriteString(w, "chart\nchart\n") }()
			charts := 0
			err := m.Run(ctx, r, &out, func(ctx context.Context, _ *models.Update) error {
				if _, err := m.SendPhoto(ctx, app.Photo{ChatID: ChatID, PNG: []byte("png"), Name: "chart.png"}); err != nil {
					return err
				}
				if charts++; charts == 2 {
					if files, _ := os.ReadDir(dir); len(files) != 2 {
						t.Errorf("%d files during the session; want the 2 charts to open", len(files))
					}
					tt.quit(cancel, w)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("Run = %v", err)
			}
			if err := m.Close(); err != nil {
				t.Fatalf("Close = %v", err)
			}
			if files, _ := os.ReadDir(dir); len(files) != 0 || charts != 2 {
				t.Fatalf("%d files left after %d charts; want none", len(files), charts)
			}
		})
	}
}
