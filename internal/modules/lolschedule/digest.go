package lolschedule

import (
	"context"
	"sync"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// digest is a day's push: its matches, said in each chat's language,
// each language rendered once however many chats read it.
type digest struct {
	texts app.Texts
	day   time.Time
	ms    []match

	mu     sync.Mutex
	byLang map[app.Lang]string
}

func (m *module) digest(day time.Time, ms []match) *digest {
	return &digest{texts: m.texts, day: day, ms: ms, byLang: map[app.Lang]string{}}
}

// said is the push as a chat reads it: its language and its text (HTML).
type said struct {
	lang app.Lang
	text string
}

// to is the push as chat reads it. An error is the store's (the chat's
// language unread).
func (d *digest) to(ctx context.Context, chat int64) (said, error) {
	w, err := d.texts.Chat(ctx, chat)
	if err != nil {
		return said{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	text, ok := d.byLang[w.Lang]
	if !ok {
		text = dayMessage(w, d.day, d.ms)
		d.byLang[w.Lang] = text
	}
	return said{lang: w.Lang, text: text}, nil
}

// dayMessage is day's push in w's language: its matches, or that it has none.
func dayMessage(w app.Words, day time.Time, ms []match) string {
	if len(ms) == 0 {
		return noMatchesText(w, day)
	}
	return render(w, w.T("push_title", app.Args{"Day": dayLabel(w, day)}), ms, false)
}
