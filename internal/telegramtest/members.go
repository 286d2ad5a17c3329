package telegramtest

import (
	"net/http"
	"strconv"
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

// SetChatAdmin makes userID an administrator of chatID, as getChatMember
// answers: everyone else is a plain member.
func (s *Server) SetChatAdmin(chatID, userID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admins == nil {
		s.admins = map[[2]int64]bool{}
	}
	s.admins[[2]int64{chatID, userID}] = true
}

// getChatMember answers a ChatMember (https://core.telegram.org/bots/api#chatmember):
// "left" for a user who Left, "administrator" for one SetChatAdmin made,
// else "member".
func (s *Server) getChatMember(w http.ResponseWriter, params map[string]string) {
	chat, err1 := strconv.ParseInt(params["chat_id"], 10, 64)
	user, err2 := strconv.ParseInt(params["user_id"], 10, 64)
	if err1 != nil || err2 != nil {
		writeFailure(w, badRequest("invalid user_id specified"))
		return
	}
	s.mu.Lock()
	left, admin := s.left[[2]int64{chat, user}], s.admins[[2]int64{chat, user}]
	s.mu.Unlock()
	member := map[string]any{"user": map[string]any{"id": user, "is_bot": false, "first_name": "User"}, "status": "member"}
	switch {
	case left:
		member["status"] = "left"
	case admin:
		member["status"] = "administrator"
		member["can_be_edited"] = false
		member["is_anonymous"] = true
	}
	writeOK(w, member)
}
