package telegram_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Message and Edit name their keyboard alike; a nil one sends no
// reply_markup at all (not "null", which Telegram refuses on a send).
func TestAKeyboardIsSentOnlyWhenThereIsOne(t *testing.T) {
	kb := app.MustKeyboard([]app.Button{{Text: "ok", Data: app.Data("p:", "1")}})
	srv := telegramtest.New(t)
	c, _ := newClient(t, srv)
	ctx := t.Context()
	plain, err := c.Send(ctx, app.Message{ChatID: 5, Text: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Send(ctx, app.Message{ChatID: 5, Text: "with", Keyboard: kb}); err != nil {
		t.Fatal(err)
	}
	if err := c.Edit(ctx, app.Edit{ChatID: 5, MessageID: plain.ID, Text: "edited", Keyboard: kb}); err != nil {
		t.Fatal(err)
	}
	if err := c.Edit(ctx, app.Edit{ChatID: 5, MessageID: plain.ID, Text: "edited again"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		call   telegramtest.Call
		markup bool
	}{
		{srv.Calls("sendMessage")[0], false},
		{srv.Calls("sendMessage")[1], true},
		{srv.Calls("editMessageText")[0], true},
		{srv.Calls("editMessageText")[1], false},
	}
	for _, tt := range tests {
		got, sent := tt.call.Params["reply_markup"]
		if sent != tt.markup || (tt.markup && !strings.Contains(got, `"callback_data":"p:1"`)) {
			t.Errorf("%s %q: reply_markup %q (sent %v), want sent %v", tt.call.Method, tt.call.Params["text"], got, sent, tt.markup)
		}
	}
}
