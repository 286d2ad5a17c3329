package telegramtest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// Failure is a scripted error answer.
type Failure struct {
	Code        int // 400, 403, 429, 500, ...
	Description string
	RetryAfter  int           // seconds, with 429
	MigrateTo   int64         // migrate_to_chat_id, with a group upgraded to a supergroup
	Delay       time.Duration // answer this late (a slow server)
	// Raw, when set, is the whole body, written as is (a recorded answer).
	Raw json.RawMessage
}

// RecordedFailure is one of the recorded error answers in testdata (see
// its README), served byte for byte.
func RecordedFailure(t testing.TB, name string) Failure {
	t.Helper()
	f, err := recordedFailure(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func recordedFailure(name string) (Failure, error) {
	raw, err := recorded.ReadFile("testdata/" + name)
	if err != nil {
		return Failure{}, err
	}
	var a struct {
		Code        int    `json:"error_code"`
		Description string `json:"description"`
		Parameters  struct {
			RetryAfter int   `json:"retry_after"`
			MigrateTo  int64 `json:"migrate_to_chat_id"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.Code == 0 {
		return Failure{}, fmt.Errorf("telegramtest: %s is not an error answer: %v", name, err)
	}
	return Failure{Code: a.Code, Description: a.Description, RetryAfter: a.Parameters.RetryAfter, MigrateTo: a.Parameters.MigrateTo, Raw: raw}, nil
}

// mustRecorded is a recorded answer the fake itself serves: a missing one
// is a broken build of this package, not a test's failure.
func mustRecorded(name string) Failure {
	f, err := recordedFailure(name)
	if err != nil {
		panic(err)
	}
	return f
}

// FailNext makes the next calls of method fail, one Failure per call.
func (s *Server) FailNext(method string, fs ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext[method] = append(s.failNext[method], fs...)
}

// Block makes every send to chatID fail as Telegram does when the user
// blocked the bot (403).
func (s *Server) Block(chatID int64) { s.FailChat(chatID, mustRecorded("answer_blocked.json")) }

// FailChat makes every send to chatID fail with f: a chat gone
// (RecordedFailure(t, "answer_kicked_supergroup.json")), restricted, ...
func (s *Server) FailChat(chatID int64, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chatFail[chatID] = f
}

// FailThread makes every send to one forum topic fail with f.
func (s *Server) FailThread(chatID int64, threadID int, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.threadFail[[2]int64{chatID, int64(threadID)}] = f
}

// DeleteThread makes sends to one forum topic fail as a deleted topic does.
func (s *Server) DeleteThread(chatID int64, threadID int) {
	s.FailThread(chatID, threadID, mustRecorded("answer_thread_not_found.json"))
}

// CloseTopic makes sends to one forum topic fail as a closed topic does.
func (s *Server) CloseTopic(chatID int64, threadID int) {
	s.FailThread(chatID, threadID, mustRecorded("answer_topic_closed.json"))
}

// Upgrade turns the basic group from into the supergroup to, as Telegram
// does: sends to from are answered 400 with migrate_to_chat_id to, and the
// two service messages (migrate_to_chat_id in the old chat, then
// migrate_from_chat_id in the new one) are queued as updates.
func (s *Server) Upgrade(from, to int64) {
	f := mustRecorded("answer_group_upgraded.json")
	s.FailChat(from, Failure{Code: f.Code, Description: f.Description, MigrateTo: to})
	now := unix(s.now())
	s.Push(
		&models.Update{Message: &models.Message{ID: 1, Date: now,
			Chat: models.Chat{ID: from, Type: models.ChatTypeGroup}, MigrateToChatID: to}},
		&models.Update{Message: &models.Message{ID: 1, Date: now,
			Chat: models.Chat{ID: to, Type: models.ChatTypeSupergroup}, MigrateFromChatID: from}},
	)
}

// scriptedFailure picks the failure for this call, if any; the caller holds
// s.mu. A call refused by a limit is not counted against it.
func (s *Server) scriptedFailure(method string, params map[string]string) (Failure, bool) {
	if q := s.failNext[method]; len(q) > 0 {
		s.failNext[method] = q[1:]
		return q[0], true
	}
	if !sending[method] {
		return Failure{}, false
	}
	chat := parseInt(params["chat_id"])
	if f, ok := s.chatFail[chat]; ok {
		return f, true
	}
	if f, ok := s.threadFail[[2]int64{chat, parseInt(params["message_thread_id"])}]; ok {
		return f, true
	}
	return s.overLimit(method, chat)
}
