package core_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// sink is a Messenger that only checks what it is asked to send.
type sink struct{ t *testing.T }

func (s sink) Send(_ context.Context, m app.Message) (*models.Message, error) {
	if text, _ := app.Fit(m.Text, m.ParseMode); len(text) == 0 && len(m.Text) != 0 {
		s.t.Fatalf("Fit lost a message of %d bytes", len(m.Text))
	}
	return &models.Message{ID: 1, Chat: models.Chat{ID: m.ChatID}}, nil
}
func (sink) AnswerCallback(context.Context, string, string) error { return nil }
func (sink) AnswerInline(context.Context, app.InlineAnswer) error { return nil }
func (sink) ChatMember(context.Context, int64, int64) (app.Membership, error) {
	return app.Member, nil
}
func (sink) SendPhoto(_ context.Context, p app.Photo) (*models.Message, error) {
	return &models.Message{ID: 1, Chat: models.Chat{ID: p.ChatID}}, nil
}
func (sink) EditPhoto(context.Context, app.PhotoEdit) error { return nil }
func (sink) Edit(context.Context, app.Edit) error           { return nil }
func (sink) SetCommands(context.Context, app.Menu) error    { return nil }
func (sink) GetMe(context.Context) (*models.User, error) {
	return &models.User{Username: "miti99bot"}, nil
}

// fieldPath is what a path of ignored parts may hold: the library's field
// names and list indexes, so logging it never logs content.
var fieldPath = regexp.MustCompile(`^([a-z0-9_]+(\[[0-9]+\])*(\.[a-z0-9_]+(\[[0-9]+\])*)*|and [0-9]+ more)$`)

// FuzzWebhookBody feeds any body through what the webhook does with it:
// decode, part by part where the whole fails, then route and handle with
// every module. Nothing may panic, a body that is no update is refused, not
// handled, and what the decoder left out is named by field paths only.
func FuzzWebhookBody(f *testing.F) {
	for _, name := range []string{"update_group_text.json", "update_forward_unknown_origin.json", "update_group_text_after.json",
		"update_callback_reply_unknown_origin.json", "update_my_chat_member_unknown_old_status.json", "update_callback_inaccessible.json"} {
		f.Add(string(telegramtest.Recorded(f, name)))
	}
	for _, text := range []string{"/ping", "/help@miti99bot", "/coin_buy BTC 100", "/stats cmd x/y", "/loldle ahri", "/lolschedule 31-02-2026", "/wordle crane", "/stock_sell FPT all", "/gold_buy 0.5"} {
		f.Add(telegramtest.WebhookBody(f, 1, -100, 3, text))
	}
	// Button presses in every module's format, old buttons' and forged.
	for _, data := range []string{"wordle:g:1", "loldle:y:1:3", "wordle:y:1", "coin:p:BTC", "stock:s:3", "gold:p:SJC", "sched:d:20261126", "sched:u", "help:wordle", "help:", "coin:s:+3"} {
		body, err := json.Marshal(telegramtest.Press(-100, 3, 1, data))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(body))
	}
	// Every third-party API points at a closed loopback port: a fuzzed
	// command reaches no service.
	offline := map[string]string{}
	for _, fac := range builtin.Catalogue() {
		for _, s := range fac.Settings {
			if strings.HasSuffix(s.Name, "_URL") {
				offline[s.Name] = "http://127.0.0.1:1"
			}
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		u, ignored, err := telegram.DecodeUpdate([]byte(body))
		if (u == nil) != (err != nil) {
			t.Fatalf("update %+v with error %v: want exactly one", u, err)
		}
		for _, p := range ignored {
			if !fieldPath.MatchString(p) {
				t.Fatalf("ignored part %q is not a field path", p)
			}
		}
		if u == nil {
			return
		}
		a, err := core.New(memory.New(), sink{t}, core.WithModules(builtin.Catalogue()), core.WithOwner(1, 2), core.WithSettings(offline))
		if err != nil {
			t.Fatal(err)
		}
		_ = a.HandleUpdate(t.Context(), u) // an error is a retry, never a crash
	})
}
