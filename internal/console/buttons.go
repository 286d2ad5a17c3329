package console

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// button is one printed button: the message it is on and its data.
type button struct {
	messageID int
	data      string
}

// keyboard prints kb's buttons numbered from 1 and keeps them for the next
// typed number: the latest keyboard is the one a number presses. A nil kb
// (an edit that took the message's buttons away) clears them only when
// that message held the latest keyboard.
func (m *Messenger) keyboard(messageID int, kb *models.InlineKeyboardMarkup) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if kb == nil || len(kb.InlineKeyboard) == 0 {
		if messageID == m.kbMessage {
			m.buttons, m.kbMessage = nil, 0
		}
		return
	}
	m.buttons, m.kbMessage = nil, messageID
	for _, row := range kb.InlineKeyboard {
		var line []string
		for _, b := range row {
			m.buttons = append(m.buttons, button{messageID: messageID, data: b.CallbackData})
			line = append(line, fmt.Sprintf("[%d] %s", len(m.buttons), b.Text))
		}
		fmt.Fprintf(m.out, "     %s\n", strings.Join(line, "  "))
	}
	// A newcomer has no buttons to tap and must be told a number presses one.
	fmt.Fprintln(m.out, "     "+m.say("press_hint"))
}

// maxButtonDigits bounds what reads as a button's number: a longer run of
// digits is a message (a price, an id), not a press.
const maxButtonDigits = 3

// press reads text as a button's number. ok: it is a number, and then
// either b is the latest keyboard's button it names or refusal says why
// none is pressed. Not a number: ok is false and text is a message.
func (m *Messenger) press(text string) (b button, refusal string, ok bool) {
	if text == "" || len(text) > maxButtonDigits || strings.Trim(text, "0123456789") != "" {
		return button{}, "", false
	}
	n, _ := strconv.Atoi(text)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case len(m.buttons) == 0:
		return button{}, m.say("no_buttons", map[string]any{"N": n}), true
	case len(m.buttons) == 1 && n != 1:
		return button{}, m.say("one_button", map[string]any{"N": n}), true
	case n < 1 || n > len(m.buttons):
		return button{}, m.say("buttons_range", map[string]any{"N": n, "Last": len(m.buttons)}), true
	}
	return m.buttons[n-1], "", true
}

// pressUpdate is the callback query of pressing b.
func pressUpdate(id int64, b button) *models.Update {
	return &models.Update{ID: id, CallbackQuery: &models.CallbackQuery{
		ID:   strconv.FormatInt(id, 10),
		From: models.User{ID: UserID, FirstName: "You", Username: "you"},
		Message: models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage, Message: &models.Message{
			ID: b.messageID, Chat: models.Chat{ID: ChatID, Type: models.ChatTypePrivate},
		}},
		Data: b.data,
	}}
}
