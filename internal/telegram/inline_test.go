package telegram_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestBothRuntimesAskTelegramForInlineQueries(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	if _, err := c.GetUpdates(t.Context(), 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.SetWebhook(t.Context(), "https://bot.example.org/webhook", "s", telegram.AllowedUpdates); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"getUpdates", "setWebhook"} {
		calls := srv.Calls(method)
		if len(calls) == 0 || !strings.Contains(calls[0].Params["allowed_updates"], `"inline_query"`) {
			t.Errorf("%s asked for %v, want inline_query among them", method, calls)
		}
	}
}

func TestAnInlineAnswerReachesTelegramAsArticlesWithItsCacheAndPersonalMark(t *testing.T) {
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	q := srv.InlineQuery(3, "btc", "sender").InlineQuery
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Open", URL: "https://t.me/miti99bot"}}}}
	err := c.AnswerInline(t.Context(), app.InlineAnswer{QueryID: q.ID, CacheTime: 30 * time.Second, Personal: true,
		Results: []app.InlineResult{{ID: "coin/BTC", Title: "BTC", Description: "$1", Text: "BTC: $1", Keyboard: kb}}})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.InlineAnswers()
	if len(got) != 1 || got[0].CacheTime != 30 || !got[0].IsPersonal {
		t.Fatalf("answers %+v", got)
	}
	r := got[0].Results[0]
	if r.Type != "article" || r.ID != "coin/BTC" || r.Text != "BTC: $1" || !strings.Contains(r.ReplyMarkup, "https://t.me/miti99bot") {
		t.Fatalf("result %+v", r)
	}
	// A second answer is Telegram's refusal, a permanent one.
	err = c.AnswerInline(t.Context(), app.InlineAnswer{QueryID: q.ID, CacheTime: time.Second})
	if !errors.Is(err, app.ErrRejected) {
		t.Fatalf("second answer: %v, want ErrRejected", err)
	}
}
