package telegramtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// Push queues updates for getUpdates (or as pending webhook deliveries).
// An update with ID 0 gets the next id. It returns the ids used.
func (s *Server) Push(updates ...*models.Update) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]int64, 0, len(updates))
	for _, u := range updates {
		if u.ID == 0 {
			s.nextUpdate++
			u.ID = s.nextUpdate
		} else if u.ID > s.nextUpdate {
			s.nextUpdate = u.ID
		}
		if u.InlineQuery != nil {
			s.inline.ask(u.InlineQuery.ID, s.now())
		}
		raw, _ := json.Marshal(u)
		s.queue = append(s.queue, raw)
		s.queueIDs = append(s.queueIDs, u.ID)
		ids = append(ids, u.ID)
	}
	s.notify()
	return ids
}

// PushRaw queues updates exactly as given (recorded answers, updates the
// client cannot decode); each must carry its update_id, in order.
func (s *Server) PushRaw(t testing.TB, updates ...json.RawMessage) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, raw := range updates {
		var id struct {
			ID int64 `json:"update_id"`
		}
		if err := json.Unmarshal(raw, &id); err != nil || id.ID <= s.nextUpdate {
			t.Fatalf("PushRaw: an update needs a new, increasing update_id: %s", raw)
		}
		s.nextUpdate = id.ID
		s.queue = append(s.queue, raw)
		s.queueIDs = append(s.queueIDs, id.ID)
	}
	s.notify()
}

// Pending is the number of updates not yet confirmed by an offset.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// getUpdates follows Telegram: 409 while a webhook is set; an offset confirms
// (forgets) every update below it; with nothing to return the request waits
// up to timeout seconds for a Push; a newer getUpdates ends an older one with
// 409 "terminated by other getUpdates request".
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, params map[string]string) {
	s.mu.Lock()
	if s.webhookURL != "" {
		s.mu.Unlock()
		writeFailure(w, Failure{Code: 409, Description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"})
		return
	}
	if s.poll != nil {
		close(s.poll.cancel)
	}
	me := &poller{cancel: make(chan struct{})}
	s.poll = me
	s.notify() // WaitPolling
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.poll == me {
			s.poll = nil
		}
		s.mu.Unlock()
	}()

	offset := parseInt(params["offset"])
	limit := int(parseInt(params["limit"]))
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	deadline := time.NewTimer(time.Duration(parseInt(params["timeout"])) * time.Second)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		for len(s.queueIDs) > 0 && s.queueIDs[0] < offset {
			s.queue, s.queueIDs = s.queue[1:], s.queueIDs[1:]
		}
		n := min(limit, len(s.queue))
		batch := append([]json.RawMessage{}, s.queue[:n]...)
		ch := s.changed
		s.mu.Unlock()
		if n > 0 {
			writeOK(w, batch)
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			writeOK(w, []json.RawMessage{})
			return
		case <-me.cancel:
			writeFailure(w, Failure{Code: 409, Description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"})
			return
		case <-r.Context().Done():
			return
		}
	}
}

// Text builds a message update from a user in a chat, the way Telegram sends
// a command: a bot_command entity at offset 0 when text starts with "/".
func Text(chatID, userID int64, text string) *models.Update {
	typ := models.ChatTypePrivate
	if chatID < 0 {
		typ = models.ChatTypeSupergroup
	}
	msg := &models.Message{
		ID:   int(time.Now().UnixNano() % 1_000_000),
		From: &models.User{ID: userID, FirstName: "User", Username: "user"},
		Date: unix(time.Now()),
		Chat: models.Chat{ID: chatID, Type: typ},
		Text: text,
	}
	if len(text) > 1 && text[0] == '/' {
		end := len(text)
		for i, r := range text {
			if r == ' ' || r == '\n' {
				end = i
				break
			}
		}
		msg.Entities = []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Offset: 0, Length: utf16Len(text[:end])}}
	}
	return &models.Update{Message: msg}
}

// Press is userID pressing the button with data on message messageID of
// chatID (a callback query).
func Press(chatID, userID int64, messageID int, data string) *models.Update {
	typ := models.ChatTypePrivate
	if chatID < 0 {
		typ = models.ChatTypeSupergroup
	}
	return &models.Update{CallbackQuery: &models.CallbackQuery{
		ID:   strconv.FormatInt(time.Now().UnixNano(), 10),
		From: models.User{ID: userID, FirstName: "User", Username: "user"},
		Message: models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage, Message: &models.Message{
			ID: messageID, Chat: models.Chat{ID: chatID, Type: typ}, Date: unix(time.Now()),
		}},
		ChatInstance: strconv.FormatInt(chatID, 10),
		Data:         data,
	}}
}

// WebhookBody is a text message with the given update_id as the JSON body
// Telegram would POST to a webhook.
func WebhookBody(t testing.TB, id, chatID, userID int64, text string) string {
	t.Helper()
	u := Text(chatID, userID, text)
	u.ID = id
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// InTopic puts a message update into a forum topic.
func InTopic(u *models.Update, threadID int) *models.Update {
	u.Message.MessageThreadID = threadID
	u.Message.IsTopicMessage = true
	u.Message.Chat.IsForum = true
	return u
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
