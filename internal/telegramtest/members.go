package telegramtest

import (
	"net/http"
)

// Leave makes user no longer a member of chat, as after leaving it or
// being removed: getChatMember answers "left" for them from now on.
// Everyone else is a member of every chat.
func (s *Server) Leave(chat, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.left == nil {
		s.left = map[[2]int64]bool{}
	}
	s.left[[2]int64{chat, user}] = true
}

// getChatMember answers a ChatMember (https://core.telegram.org/bots/api#chatmember):
// "member", or "left" for a user who Left.
func (s *Server) getChatMember(w http.ResponseWriter, params map[string]string) {
	chat, user := parseInt(params["chat_id"]), parseInt(params["user_id"])
	s.mu.Lock()
	left := s.left[[2]int64{chat, user}]
	s.mu.Unlock()
	status := "member"
	if left {
		status = "left"
	}
	writeOK(w, map[string]any{"status": status, "user": map[string]any{"id": user, "is_bot": false, "first_name": "User"}})
}
