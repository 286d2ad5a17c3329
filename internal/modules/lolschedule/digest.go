package lolschedule

import (
	"context"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// digest is a day's push: its matches, said in each chat's language,
// each language rendered once however many chats read it.
type digest struct {
	texts  app.Texts
	day    time.Time
	ms     []match
	byLang map[app.Lang]app.Message
}

func (m *module) digest(day time.Time, ms []match) *digest {
	return &digest{texts: m.texts, day: day, ms: ms, byLang: map[app.Lang]app.Message{}}
}

// to is the push as chat reads it: its text (HTML) and its button. An
// error is the store's (the chat's language unread).
func (d *digest) to(ctx context.Context, chat int64) (app.Message, error) {
	w, err := d.texts.Chat(ctx, chat)
	if err != nil {
		return app.Message{}, err
	}
	if msg, ok := d.byLang[w.Lang]; ok {
		return msg, nil
	}
	text := noMatchesText(w, d.day)
	if len(d.ms) > 0 {
		text = render(w, w.T("push_title", app.Args{"Day": dayLabel(w, d.day)}), d.ms, false)
	}
	msg := app.Message{Text: text, Keyboard: pushKeyboard(w, d.day)}
	d.byLang[w.Lang] = msg
	return msg, nil
}
