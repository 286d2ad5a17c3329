package telegramtest

import (
	"net/http"
	"strconv"
)

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

// getChatMember answers with a ChatMember of the status SetChatAdmin set
// (https://core.telegram.org/bots/api#chatmember): "administrator" or
// "member".
func (s *Server) getChatMember(w http.ResponseWriter, params map[string]string) {
	chat, err1 := strconv.ParseInt(params["chat_id"], 10, 64)
	user, err2 := strconv.ParseInt(params["user_id"], 10, 64)
	if err1 != nil || err2 != nil {
		writeFailure(w, badRequest("invalid user_id specified"))
		return
	}
	s.mu.Lock()
	admin := s.admins[[2]int64{chat, user}]
	s.mu.Unlock()
	member := map[string]any{"user": map[string]any{"id": user, "is_bot": false, "first_name": "User"}, "status": "member"}
	if admin {
		member["status"] = "administrator"
		member["can_be_edited"] = false
		member["is_anonymous"] = true
	}
	writeOK(w, member)
}
