package telegramtest

import (
	"encoding/json"

	"github.com/go-telegram/bot/models"
)

// Sent is a sendMessage call, decoded.
type Sent struct {
	ChatID      int64
	ThreadID    int
	Text        string
	ParseMode   string
	ReplyMarkup string
}

// Keyboard is the inline keyboard of the newest message in chat that has
// one, as it shows now (after edits), with that message's id.
func (s *Server) Keyboard(chat int64) (messageID int, rows [][]models.InlineKeyboardButton, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, v := range s.shown {
		if key[0] != chat || v.markup == "" || int(key[1]) < messageID {
			continue
		}
		var kb models.InlineKeyboardMarkup
		if json.Unmarshal([]byte(v.markup), &kb) != nil || len(kb.InlineKeyboard) == 0 {
			continue
		}
		messageID, rows, ok = int(key[1]), kb.InlineKeyboard, true
	}
	return messageID, rows, ok
}

// Edits returns every editMessageText call in order, decoded.
func (s *Server) Edits() []Sent {
	var out []Sent
	for _, c := range s.Calls("editMessageText") {
		out = append(out, decodeSent(c))
	}
	return out
}

// Messages returns every sendMessage call in order, decoded.
func (s *Server) Messages() []Sent {
	var out []Sent
	for _, c := range s.Calls("sendMessage") {
		out = append(out, decodeSent(c))
	}
	return out
}

func decodeSent(c Call) Sent {
	return Sent{
		ChatID:      parseInt(c.Params["chat_id"]),
		ThreadID:    int(parseInt(c.Params["message_thread_id"])),
		Text:        c.Params["text"],
		ParseMode:   c.Params["parse_mode"],
		ReplyMarkup: c.Params["reply_markup"],
	}
}

// Shows is what message id in chat says now, after every edit ("" and
// false for a message never sent).
func (s *Server) Shows(chat int64, id int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.shown[[2]int64{chat, int64(id)}]
	return v.text, ok
}
