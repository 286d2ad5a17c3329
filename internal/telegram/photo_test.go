package telegram_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// pngOf is a real PNG of w x h pixels.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.Black)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A photo is uploaded as multipart with its caption and keyboard, and an
// edit replaces the picture of that very message (editMessageMedia), a 429
// on the way retried with the whole upload again.
func TestAPhotoIsUploadedAndEditedInPlace(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	first, second := pngOf(t, 800, 500), pngOf(t, 800, 501)
	kb := app.MustKeyboard([]app.Button{{Text: "7d", Data: app.Data("coin:", "c", "BTC", "7d")}})
	msg, err := c.SendPhoto(t.Context(), app.Photo{ChatID: -100, ThreadID: 7, PNG: first, Name: "chart.png", Caption: "BTC", Keyboard: kb})
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Photo) == 0 || msg.Photo[0].Width != 800 || msg.Caption != "BTC" {
		t.Fatalf("sent message %+v; want the 800 px photo captioned BTC", msg)
	}
	srv.FailNext("editMessageMedia", telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 1", RetryAfter: 1})
	if err := c.EditPhoto(t.Context(), app.PhotoEdit{ChatID: -100, MessageID: msg.ID, PNG: second, Name: "chart.png", Caption: "BTC 7d", Keyboard: kb}); err != nil {
		t.Fatal(err)
	}
	sent, edits := srv.Photos(), srv.MediaEdits()
	if len(sent) != 1 || !bytes.Equal(sent[0].PNG, first) || sent[0].ThreadID != 7 || !strings.Contains(sent[0].ReplyMarkup, "coin:c:BTC:7d") {
		t.Fatalf("sendPhoto calls %+v; want one upload of the first picture to topic 7 with its keyboard", sent)
	}
	if len(edits) != 2 || !bytes.Equal(edits[1].PNG, second) || edits[1].MessageID != msg.ID || edits[1].Caption != "BTC 7d" {
		t.Fatalf("editMessageMedia calls %d, last %+v; want the refused one and a retry uploading the second picture into message %d", len(edits), edits[len(edits)-1], msg.ID)
	}
}

// Telegram's limits hold on the way out: a caption is cut to 1024
// characters (never refused), a picture over 10 MB is not sent at all,
// and an edit of a message that is not there is refused as Telegram does.
func TestPhotoLimits(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	pic := pngOf(t, 10, 10)
	if _, err := c.SendPhoto(t.Context(), app.Photo{ChatID: 1, PNG: pic, Caption: strings.Repeat("é", 3000)}); err != nil {
		t.Fatalf("a long caption: %v; want it cut and sent", err)
	}
	if got := srv.Photos()[0].Caption; len(utf16.Encode([]rune(got))) != app.MaxCaptionUnits || !strings.HasSuffix(got, "…") {
		t.Fatalf("caption of %d units; want %d ending in …", len(utf16.Encode([]rune(got))), app.MaxCaptionUnits)
	}
	big := make([]byte, app.MaxPhotoBytes+1)
	if _, err := c.SendPhoto(t.Context(), app.Photo{ChatID: 1, PNG: big}); !errors.Is(err, app.ErrRejected) {
		t.Fatalf("an 11 MB photo: %v; want ErrRejected before any upload", err)
	}
	if n := len(srv.Photos()); n != 1 {
		t.Fatalf("%d uploads; the oversized one must not be sent", n)
	}
	err := c.EditPhoto(t.Context(), app.PhotoEdit{ChatID: 1, MessageID: 999, PNG: pic})
	if !errors.Is(err, app.ErrRejected) || !strings.Contains(err.Error(), "message to edit not found") {
		t.Fatalf("editing a message never sent: %v; want Telegram's refusal", err)
	}
}
