package apptest

import (
	"strings"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Buttons are the labels of the newest keyboard in chatID, row by row, as
// it shows now; "" when there is none.
func (b *Bot) Buttons(chatID int64) string {
	_, rows, ok := b.Srv.Keyboard(chatID)
	if !ok {
		return ""
	}
	var out []string
	for _, row := range rows {
		var labels []string
		for _, btn := range row {
			labels = append(labels, "["+btn.Text+"]")
		}
		out = append(out, strings.Join(labels, " "))
	}
	return strings.Join(out, "\n")
}

// Press is userID pressing the button labelled label on the newest
// keyboard in chatID; it returns the button's callback data and the
// handling's error.
func (b *Bot) Press(chatID, userID int64, label string) (string, error) {
	b.t.Helper()
	id, rows, ok := b.Srv.Keyboard(chatID)
	if !ok {
		b.t.Fatalf("no keyboard in chat %d", chatID)
	}
	for _, row := range rows {
		for _, btn := range row {
			if btn.Text == label {
				return btn.CallbackData, b.Handle(telegramtest.Press(chatID, userID, id, btn.CallbackData))
			}
		}
	}
	b.t.Fatalf("no button %q in chat %d: %s", label, chatID, b.Buttons(chatID))
	return "", nil
}

// PressData is userID pressing a button of message messageID in chatID
// that carries data as it is (an older button's, or forged): it returns
// the toast the press was answered with ("" for a silent answer or none),
// how many edits it made, and the handling's error.
func (b *Bot) PressData(chatID, userID int64, messageID int, data string) (toast string, edits int, err error) {
	before, toasts := len(b.Srv.Calls("editMessageText")), len(b.Toasts())
	err = b.Handle(telegramtest.Press(chatID, userID, messageID, data))
	if t := b.Toasts()[toasts:]; len(t) > 0 {
		toast = t[len(t)-1]
	}
	return toast, len(b.Srv.Calls("editMessageText")) - before, err
}

// Toasts are the texts of the answered callback queries, in order ("" for
// a silent answer).
func (b *Bot) Toasts() []string {
	var out []string
	for _, c := range b.Srv.Calls("answerCallbackQuery") {
		out = append(out, c.Params["text"])
	}
	return out
}
