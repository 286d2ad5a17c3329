package telegramtest

import "net/http"

// ServeHTTP answers one Bot API request as the fake's own server does, so
// a test can put its own handler in front of the fake (the simulation
// records every answer's outcome there) and still reach the same state.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.serveHTTP(w, r) }

// Params decodes a Bot API request's parameters as the fake reads them
// (query string, JSON, form or multipart). It consumes r's body.
func Params(r *http.Request) (map[string]string, error) {
	params, _, err := readParams(r)
	return params, err
}

// Restore ends FailChat or Block for chatID: sends land again (a user who
// unblocked the bot, a group that added it back).
func (s *Server) Restore(chatID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.chatFail, chatID)
}

// ReopenThread ends FailThread, CloseTopic or DeleteThread for one topic.
func (s *Server) ReopenThread(chatID int64, threadID int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.threadFail, [2]int64{chatID, int64(threadID)})
}
