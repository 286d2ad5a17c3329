package telegramtest

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// upload posts one multipart sendPhoto or editMessageMedia as a client
// would and returns the fake's HTTP status and body.
func upload(t *testing.T, s *Server, method string, fields map[string]string, file string, data []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	if file != "" {
		fw, _ := w.CreateFormFile(file, file+".png")
		_, _ = fw.Write(data)
	}
	_ = w.Close()
	resp, err := http.Post(s.URL+"/bot"+s.Token+"/"+method, w.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	return resp.StatusCode, out.String()
}

func picture(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The fake refuses what Telegram refuses of a photo, with Telegram's words.
func TestThePhotoLimitsAreTelegrams(t *testing.T) {
	s := New(t)
	ok := picture(t, 800, 500)
	tests := []struct {
		name   string
		fields map[string]string
		file   string
		data   []byte
		want   string
	}{
		{"a photo within every limit is sent", map[string]string{"chat_id": "1", "caption": strings.Repeat("a", 1024)}, "photo", ok, `"ok":true`},
		{"a caption over 1024 characters is refused", map[string]string{"chat_id": "1", "caption": strings.Repeat("a", 1025)}, "photo", ok, "message caption is too long"},
		{"HTML tags do not count toward the caption", map[string]string{"chat_id": "1", "caption": "<b>" + strings.Repeat("a", 1024) + "</b>", "parse_mode": "HTML"}, "photo", ok, `"ok":true`},
		{"bytes that are no picture are refused", map[string]string{"chat_id": "1"}, "photo", []byte("not a png"), "IMAGE_PROCESS_FAILED"},
		{"sides over 10000 together are refused", map[string]string{"chat_id": "1"}, "photo", picture(t, 9000, 1001), "PHOTO_INVALID_DIMENSIONS"},
		{"a ratio over 20 is refused", map[string]string{"chat_id": "1"}, "photo", picture(t, 2100, 100), "PHOTO_INVALID_DIMENSIONS"},
		{"over 10 MB is refused", map[string]string{"chat_id": "1"}, "photo", make([]byte, 10<<20+1), "Request Entity Too Large"},
		{"no upload is refused", map[string]string{"chat_id": "1"}, "", nil, "there is no photo in the request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, body := upload(t, s, "sendPhoto", tt.fields, tt.file, tt.data); !strings.Contains(body, tt.want) {
				t.Fatalf("answer %.200s; want %q", body, tt.want)
			}
		})
	}
}

// editMessageMedia replaces the photo of a message the fake sent; the
// upload must be the field media names, and a text message's text cannot
// be edited once it is a photo.
func TestEditMessageMediaReplacesThePhotoInPlace(t *testing.T) {
	s := New(t)
	pic := picture(t, 800, 500)
	upload(t, s, "sendPhoto", map[string]string{"chat_id": "5"}, "photo", pic)
	media := `{"type":"photo","media":"attach://chart","caption":"7d"}`
	tests := []struct {
		name   string
		method string
		fields map[string]string
		file   string
		want   string
	}{
		{"the sent photo is replaced", "editMessageMedia", map[string]string{"chat_id": "5", "message_id": "1", "media": media}, "chart", `"caption":"7d"`},
		{"an upload under another name is refused", "editMessageMedia", map[string]string{"chat_id": "5", "message_id": "1", "media": media}, "other", "wrong file identifier"},
		{"a message never sent is not found", "editMessageMedia", map[string]string{"chat_id": "5", "message_id": "9", "media": media}, "chart", "message to edit not found"},
		{"a photo has no text to edit", "editMessageText", map[string]string{"chat_id": "5", "message_id": "1", "text": "x"}, "", "there is no text in the message to edit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, body := upload(t, s, tt.method, tt.fields, tt.file, pic); !strings.Contains(body, tt.want) {
				t.Fatalf("answer %.200s; want %q", body, tt.want)
			}
		})
	}
	if edits := s.MediaEdits(); len(edits) != 3 || !bytes.Equal(edits[0].PNG, pic) || edits[0].Caption != "7d" {
		t.Fatalf("media edits %d, first caption %q; want 3 recorded, the first with its upload", len(edits), edits[0].Caption)
	}
}
