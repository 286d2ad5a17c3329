package telegram

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The client sends pictures too.
var _ app.Photos = (*Client)(nil)

// SendPhoto uploads a picture (multipart sendPhoto) with its caption, cut
// to Telegram's limit by app.FitCaption. A group that became a supergroup
// is sent to once more, at its new id, as Send does.
func (c *Client) SendPhoto(ctx context.Context, p app.Photo) (*models.Message, error) {
	if len(p.PNG) > app.MaxPhotoBytes {
		return nil, fmt.Errorf("telegram: sendPhoto: %d bytes, over %d: %w", len(p.PNG), app.MaxPhotoBytes, app.ErrRejected)
	}
	msg, err := c.sendPhoto(ctx, p)
	var mig *app.ChatMigratedError
	if !errors.As(err, &mig) {
		return msg, err
	}
	c.chatMigrated(mig)
	p.ChatID = mig.To
	if msg, err = c.sendPhoto(ctx, p); err != nil {
		return nil, &app.ChatMigratedError{From: mig.From, To: mig.To, Resent: err}
	}
	return msg, nil
}

func (c *Client) sendPhoto(ctx context.Context, p app.Photo) (*models.Message, error) {
	p.Caption, p.ParseMode = app.FitCaption(p.Caption, p.ParseMode)
	return call(ctx, c, "sendPhoto", p.ChatID, false, func(ctx context.Context) (*models.Message, error) {
		// A fresh reader each attempt: a 429's retry uploads again.
		params := &bot.SendPhotoParams{
			ChatID:          p.ChatID,
			MessageThreadID: p.ThreadID,
			Photo:           &models.InputFileUpload{Filename: p.FileName(), Data: bytes.NewReader(p.PNG)},
			Caption:         p.Caption,
			ParseMode:       p.ParseMode,
		}
		if p.Keyboard != nil {
			params.ReplyMarkup = p.Keyboard
		}
		return c.bot.SendPhoto(ctx, params)
	})
}

// EditPhoto replaces a message's picture, caption and keyboard in place
// (multipart editMessageMedia). "message is not modified" is no error, as
// for Edit; an edit in a migrated group is not resent (its messages have
// other ids there).
func (c *Client) EditPhoto(ctx context.Context, e app.PhotoEdit) error {
	if len(e.PNG) > app.MaxPhotoBytes {
		return fmt.Errorf("telegram: editMessageMedia: %d bytes, over %d: %w", len(e.PNG), app.MaxPhotoBytes, app.ErrRejected)
	}
	e.Caption, e.ParseMode = app.FitCaption(e.Caption, e.ParseMode)
	_, err := call(ctx, c, "editMessageMedia", e.ChatID, false, func(ctx context.Context) (*models.Message, error) {
		params := &bot.EditMessageMediaParams{
			ChatID:    e.ChatID,
			MessageID: e.MessageID,
			Media: &models.InputMediaPhoto{
				Media:           "attach://" + e.FileName(),
				MediaAttachment: bytes.NewReader(e.PNG),
				Caption:         e.Caption,
				ParseMode:       e.ParseMode,
			},
		}
		if e.Keyboard != nil {
			params.ReplyMarkup = e.Keyboard
		}
		return c.bot.EditMessageMedia(ctx, params)
	})
	return c.edited(err)
}
