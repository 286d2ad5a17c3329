package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // Telegram takes JPEG photos too
	_ "image/png"  // the bot's charts
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/go-telegram/bot/models"
)

// Telegram's limits on a photo (https://core.telegram.org/bots/api#sendphoto):
// at most 10 MB, width and height together at most 10000, a ratio of at
// most 20, a caption of at most 1024 characters after entity parsing.
const (
	maxPhotoBytes   = 10 << 20
	maxPhotoSides   = 10000
	maxPhotoRatio   = 20
	maxCaptionUnits = 1024
)

// uploads reads every file of a multipart form, by field name.
func uploads(form *multipart.Form) (map[string][]byte, error) {
	files := map[string][]byte{}
	for field, hs := range form.File {
		f, err := hs[0].Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		files[field] = b
	}
	return files, nil
}

// badPhoto is why Telegram refuses an uploaded photo and its caption, or "".
func badPhoto(data []byte, caption, parseMode string) (Failure, bool) {
	if len(data) > maxPhotoBytes {
		return Failure{Code: http.StatusRequestEntityTooLarge, Description: "Request Entity Too Large"}, true
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return badRequest("IMAGE_PROCESS_FAILED"), true
	}
	w, h := cfg.Width, cfg.Height
	if w == 0 || h == 0 || w+h > maxPhotoSides || w > maxPhotoRatio*h || h > maxPhotoRatio*w {
		return badRequest("PHOTO_INVALID_DIMENSIONS"), true
	}
	if textUnits(caption, parseMode) > maxCaptionUnits {
		return badRequest("message caption is too long"), true
	}
	return Failure{}, false
}

// sendPhoto takes an upload (multipart, field "photo"); a photo named by
// file_id or URL is not something the bot sends, so it is refused.
func (s *Server) sendPhoto(w http.ResponseWriter, params map[string]string, files map[string][]byte) {
	data, ok := files["photo"]
	if !ok {
		writeFailure(w, badRequest("there is no photo in the request"))
		return
	}
	if f, bad := badPhoto(data, params["caption"], params["parse_mode"]); bad {
		writeFailure(w, f)
		return
	}
	msg, ok := s.post(w, params)
	if !ok {
		return
	}
	msg.Text, msg.Caption = "", params["caption"]
	msg.Photo = photoSizes(data)
	s.show(msg.Chat.ID, msg.ID, shown{text: params["caption"], markup: params["reply_markup"], photo: true})
	writeOK(w, msg)
}

// editMessageMedia replaces a message's photo with an upload: media is
// {"type":"photo","media":"attach://<field>",...} and the file is that
// field. A message never sent is "not found".
func (s *Server) editMessageMedia(w http.ResponseWriter, params map[string]string, files map[string][]byte) {
	var media struct {
		Type      string `json:"type"`
		Media     string `json:"media"`
		Caption   string `json:"caption"`
		ParseMode string `json:"parse_mode"`
	}
	if json.Unmarshal([]byte(params["media"]), &media) != nil || media.Type != "photo" {
		writeFailure(w, badRequest("can't parse InputMedia JSON object"))
		return
	}
	field, ok := strings.CutPrefix(media.Media, "attach://")
	data, uploaded := files[field]
	if !ok || !uploaded {
		writeFailure(w, badRequest("wrong file identifier/HTTP URL specified"))
		return
	}
	if f, bad := badPhoto(data, media.Caption, media.ParseMode); bad {
		writeFailure(w, f)
		return
	}
	if why := badMarkup(params["reply_markup"]); why != "" {
		writeFailure(w, badRequest(why))
		return
	}
	chat, id := parseInt(params["chat_id"]), parseInt(params["message_id"])
	s.mu.Lock()
	_, found := s.shown[[2]int64{chat, id}]
	s.mu.Unlock()
	if !found {
		writeFailure(w, badRequest("message to edit not found"))
		return
	}
	// A new upload is new media: Telegram never answers "not modified" to it.
	s.show(chat, int(id), shown{text: media.Caption, markup: params["reply_markup"], photo: true})
	msg, _ := s.message(params)
	msg.ID, msg.Text, msg.Caption, msg.Photo = int(id), "", media.Caption, photoSizes(data)
	writeOK(w, msg)
}

// show records what a message shows now.
func (s *Server) show(chat int64, id int, v shown) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown == nil {
		s.shown = map[[2]int64]shown{}
	}
	s.shown[[2]int64{chat, int64(id)}] = v
}

// photoSizes is the one size the fake keeps of an upload.
func photoSizes(data []byte) []models.PhotoSize {
	cfg, _, _ := image.DecodeConfig(bytes.NewReader(data))
	return []models.PhotoSize{{
		FileID: fmt.Sprintf("photo-%d", len(data)), FileUniqueID: fmt.Sprintf("u%d", len(data)),
		Width: cfg.Width, Height: cfg.Height, FileSize: len(data),
	}}
}

// SentPhoto is a sendPhoto or editMessageMedia call, decoded.
type SentPhoto struct {
	ChatID    int64
	MessageID int // editMessageMedia's; 0 for sendPhoto
	ThreadID  int
	PNG       []byte
	Caption   string
	ParseMode string
	// ReplyMarkup is the keyboard as sent, JSON.
	ReplyMarkup string
}

// Photos returns every sendPhoto call in order, decoded.
func (s *Server) Photos() []SentPhoto {
	var out []SentPhoto
	for _, c := range s.Calls("sendPhoto") {
		out = append(out, SentPhoto{
			ChatID: parseInt(c.Params["chat_id"]), ThreadID: int(parseInt(c.Params["message_thread_id"])),
			PNG: c.Files["photo"], Caption: c.Params["caption"], ParseMode: c.Params["parse_mode"],
			ReplyMarkup: c.Params["reply_markup"],
		})
	}
	return out
}

// MediaEdits returns every editMessageMedia call in order, decoded.
func (s *Server) MediaEdits() []SentPhoto {
	var out []SentPhoto
	for _, c := range s.Calls("editMessageMedia") {
		var media struct {
			Media     string `json:"media"`
			Caption   string `json:"caption"`
			ParseMode string `json:"parse_mode"`
		}
		_ = json.Unmarshal([]byte(c.Params["media"]), &media)
		field, _ := strings.CutPrefix(media.Media, "attach://")
		out = append(out, SentPhoto{
			ChatID: parseInt(c.Params["chat_id"]), MessageID: int(parseInt(c.Params["message_id"])),
			PNG: c.Files[field], Caption: media.Caption, ParseMode: media.ParseMode,
			ReplyMarkup: c.Params["reply_markup"],
		})
	}
	return out
}
