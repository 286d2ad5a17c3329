package app

import (
	"context"
	"errors"

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

// Photos is the photo capability of a Messenger. It is an interface of its
// own, not two more Messenger methods, so every Messenger (the adapters,
// the engine's wrappers, test doubles) keeps compiling unchanged and a
// module asks for photos only where it sends them: Deps.Photos.
type Photos interface {
	SendPhoto(ctx context.Context, p Photo) (*models.Message, error)
	// EditPhoto replaces a sent message's picture; the same picture and
	// caption again is no error (a double tap).
	EditPhoto(ctx context.Context, e PhotoEdit) error
}

// ErrNoPhotos: the messenger the bot runs with cannot send pictures.
var ErrNoPhotos = errors.New("this messenger cannot send photos")

// Photos is the messenger's photo capability, or one whose every call
// fails with ErrNoPhotos.
func (d Deps) Photos() Photos {
	if p, ok := d.Bot.(Photos); ok {
		return p
	}
	return noPhotos{}
}

type noPhotos struct{}

func (noPhotos) SendPhoto(context.Context, Photo) (*models.Message, error) { return nil, ErrNoPhotos }
func (noPhotos) EditPhoto(context.Context, PhotoEdit) error                { return ErrNoPhotos }

// FitCaption is Fit for a caption: cut to MaxCaptionUnits with "…", HTML
// that would not fit sent as its plain text.
func FitCaption(text string, mode models.ParseMode) (string, models.ParseMode) {
	return fitUnits(text, mode, MaxCaptionUnits)
}
