package app

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// Telegram's limits on a photo (https://core.telegram.org/bots/api#sendphoto):
// at most 10 MB uploaded, a caption of at most 1024 characters after entity
// parsing (UTF-16 code units, counted before it on the safe side).
const (
	MaxPhotoBytes    = 10 << 20
	MaxCaptionUnits  = 1024
	defaultPhotoName = "photo.png"
)

// Photo is one outgoing picture, uploaded with the message (multipart).
type Photo struct {
	ChatID   int64
	ThreadID int // the forum topic; 0 for the chat itself
	// PNG is the picture's bytes; Name is its file name ("chart.png").
	PNG  []byte
	Name string
	// Caption is cut to MaxCaptionUnits by FitCaption.
	Caption   string
	ParseMode models.ParseMode
	Keyboard  *models.InlineKeyboardMarkup
}

// PhotoEdit replaces the picture, caption and keyboard of a message the bot
// sent, in place (editMessageMedia).
type PhotoEdit struct {
	ChatID    int64
	MessageID int
	PNG       []byte
	Name      string
	Caption   string
	ParseMode models.ParseMode
	Keyboard  *models.InlineKeyboardMarkup
}

// FileName is the upload's name, "photo.png" when none is given.
func (p Photo) FileName() string { return orDefault(p.Name) }

// FileName is the upload's name, "photo.png" when none is given.
func (e PhotoEdit) FileName() string { return orDefault(e.Name) }

func orDefault(name string) string {
	if name == "" {
		return defaultPhotoName
	}
	return name
}

// Photos is the photo half of a Messenger: every Messenger sends and
// edits pictures (the console writes them to files).
type Photos interface {
	SendPhoto(ctx context.Context, p Photo) (*models.Message, error)
	// EditPhoto replaces a sent message's picture; the same picture and
	// caption again is no error (a double tap).
	EditPhoto(ctx context.Context, e PhotoEdit) error
}

// Photos is the messenger's photo half, for a module that only draws.
func (d Deps) Photos() Photos { return d.Bot }

// FitCaption is Fit for a caption: cut to MaxCaptionUnits with "…", HTML
// that would not fit sent as its plain text.
func FitCaption(text string, mode models.ParseMode) (string, models.ParseMode) {
	return fitUnits(text, mode, MaxCaptionUnits)
}
