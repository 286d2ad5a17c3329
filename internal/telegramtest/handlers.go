package telegramtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// sending methods count against the rate limit and per-chat failures.
var sending = map[string]bool{"sendMessage": true, "editMessageText": true, "sendPhoto": true, "editMessageMedia": true}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	token, method, ok := methodOf(r.URL.Path)
	if !ok {
		writeFailure(w, Failure{Code: 404, Description: "Not Found"})
		return
	}
	if token != s.Token {
		writeFailure(w, Failure{Code: 401, Description: "Unauthorized"})
		return
	}
	params, files, err := readParams(r)
	if err != nil {
		writeFailure(w, badRequest(err.Error()))
		return
	}
	// Read to EOF: only then does net/http watch the connection and cancel
	// r.Context() when a client gives up on a slow answer.
	_, _ = io.Copy(io.Discard, r.Body)

	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: method, Params: params, Files: files, At: s.now()})
	s.notify()
	f, failing := s.scriptedFailure(method, params)
	s.mu.Unlock()

	if failing {
		if f.Delay > 0 {
			select {
			case <-time.After(f.Delay):
			case <-r.Context().Done():
				s.mu.Lock()
				s.abandoned++
				s.notify()
				s.mu.Unlock()
				return
			}
		}
		if f.Code != 0 {
			writeFailure(w, f)
			return
		}
	}

	switch method {
	case "getMe":
		writeOK(w, s.Bot)
	case "getChatMember":
		s.getChatMember(w, params)
	case "sendMessage":
		s.sendMessage(w, params)
	case "editMessageText":
		s.editMessageText(w, params)
	case "sendPhoto":
		s.sendPhoto(w, params, files)
	case "editMessageMedia":
		s.editMessageMedia(w, params, files)
	case "answerInlineQuery":
		s.answerInlineQuery(w, params)
	case "answerCallbackQuery", "deleteMyCommands", "setChatMenuButton":
		writeOK(w, true)
	case "setMyCommands":
		s.setMyCommands(w, params)
	case "getUpdates":
		s.getUpdates(w, r, params)
	case "setWebhook":
		s.mu.Lock()
		s.webhookURL, s.webhookSec = params["url"], params["secret_token"]
		s.notify()
		s.mu.Unlock()
		writeOK(w, true)
	case "deleteWebhook":
		s.mu.Lock()
		s.webhookURL, s.webhookSec = "", ""
		if parseBool(params["drop_pending_updates"]) {
			s.queue, s.queueIDs = nil, nil
		}
		s.notify()
		s.mu.Unlock()
		writeOK(w, true)
	case "getWebhookInfo":
		s.mu.Lock()
		info := models.WebhookInfo{URL: s.webhookURL, PendingUpdateCount: len(s.queue)}
		s.mu.Unlock()
		writeOK(w, info)
	default:
		writeFailure(w, Failure{Code: 404, Description: "Not Found: method not found"})
	}
}

func (s *Server) message(params map[string]string) (models.Message, bool) {
	chat := parseInt(params["chat_id"])
	if chat == 0 {
		return models.Message{}, false
	}
	typ := models.ChatTypePrivate
	if chat < 0 {
		typ = models.ChatTypeSupergroup
	}
	s.mu.Lock()
	if s.nextMessage == nil {
		s.nextMessage = map[int64]int{}
	}
	s.nextMessage[chat]++ // a message's id is its chat's, as Telegram's
	id := s.nextMessage[chat]
	s.mu.Unlock()
	bot := s.Bot
	return models.Message{
		ID:              id,
		MessageThreadID: int(parseInt(params["message_thread_id"])),
		From:            &bot,
		Date:            unix(s.now()),
		Chat:            models.Chat{ID: chat, Type: typ},
		Text:            params["text"],
	}, true
}

func (s *Server) sendMessage(w http.ResponseWriter, params map[string]string) {
	if params["text"] == "" {
		writeFailure(w, badRequest("message text is empty"))
		return
	}
	if textUnits(params["text"], params["parse_mode"]) > maxTextUnits {
		writeFailure(w, badRequest("message is too long"))
		return
	}
	msg, ok := s.post(w, params)
	if !ok {
		return
	}
	s.show(msg.Chat.ID, msg.ID, shown{text: params["text"], markup: params["reply_markup"]})
	writeOK(w, msg)
}

// post is a new message to the chat params name, once its keyboard is one
// Telegram takes; false when it answered the refusal.
func (s *Server) post(w http.ResponseWriter, params map[string]string) (models.Message, bool) {
	if why := badMarkup(params["reply_markup"]); why != "" {
		writeFailure(w, badRequest(why))
		return models.Message{}, false
	}
	msg, ok := s.message(params)
	if !ok {
		writeFailure(w, badRequest("chat not found"))
	}
	return msg, ok
}

// editMessageText answers as Telegram does: a message it never sent is
// "not found", and an edit to the same text and keyboard is refused as
// "not modified" (the descriptions are Telegram's, as bots in the wild
// match them).
func (s *Server) editMessageText(w http.ResponseWriter, params map[string]string) {
	if params["text"] == "" {
		writeFailure(w, badRequest("message text is empty"))
		return
	}
	if textUnits(params["text"], params["parse_mode"]) > maxTextUnits {
		writeFailure(w, badRequest("MESSAGE_TOO_LONG"))
		return
	}
	if why := badMarkup(params["reply_markup"]); why != "" {
		writeFailure(w, badRequest(why))
		return
	}
	key := [2]int64{parseInt(params["chat_id"]), parseInt(params["message_id"])}
	now := shown{text: params["text"], markup: params["reply_markup"]}
	s.mu.Lock()
	was, found := s.shown[key]
	if found && !was.photo && was != now {
		s.shown[key] = now
	}
	s.mu.Unlock()
	switch {
	case !found:
		writeFailure(w, badRequest("message to edit not found"))
		return
	case was.photo:
		writeFailure(w, badRequest("there is no text in the message to edit"))
		return
	case was == now:
		writeFailure(w, badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"))
		return
	}
	msg, _ := s.message(params)
	msg.ID = int(key[1])
	writeOK(w, msg)
}

func (s *Server) setMyCommands(w http.ResponseWriter, params map[string]string) {
	var cmds []models.BotCommand
	if err := json.Unmarshal([]byte(params["commands"]), &cmds); err != nil {
		writeFailure(w, badRequest("can't parse commands JSON object"))
		return
	}
	m, err := menuOf(params)
	if err != nil {
		writeFailure(w, badRequest(err.Error()))
		return
	}
	s.mu.Lock()
	if s.commands == nil {
		s.commands = map[menu][]models.BotCommand{}
	}
	s.commands[m] = cmds
	s.notify()
	s.mu.Unlock()
	writeOK(w, true)
}

// menuOf reads setMyCommands' language_code (empty, or two ISO 639-1
// letters) and scope (a BotCommandScope; none: "default"), refusing what
// Telegram refuses.
func menuOf(params map[string]string) (menu, error) {
	m := menu{lang: params["language_code"], scope: "default"}
	if l := m.lang; l != "" && (len(l) != 2 || strings.ToLower(l) != l) {
		return menu{}, fmt.Errorf("invalid language code %q", l)
	}
	if raw := params["scope"]; raw != "" {
		var sc struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return menu{}, fmt.Errorf("can't parse BotCommandScope JSON object")
		}
		switch sc.Type {
		case "default", "all_private_chats", "all_group_chats", "all_chat_administrators":
			m.scope = sc.Type
		default: // chat scopes name a chat: not modelled
			return menu{}, fmt.Errorf("unsupported bot command scope type %q", sc.Type)
		}
	}
	return m, nil
}
