package telegramtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"
)

// InlineTimeout is how long after an inline query the fake still takes
// its answer: Telegram refuses a later one (testdata/README.md).
const InlineTimeout = 10 * time.Second

// InlineAnswer is an answer the fake took.
type InlineAnswer struct {
	QueryID    string
	Results    []InlineResult
	CacheTime  int
	IsPersonal bool
}

// InlineResult is one result of an answer, as sent.
type InlineResult struct {
	Type, ID, Title, Description string
	Text                         string // input_message_content.message_text
	ReplyMarkup                  string // JSON, "" when none
}

// inlineQueries are the queries the fake asked: when, and whether
// answered.
type inlineQueries struct {
	mu      sync.Mutex
	asked   map[string]time.Time
	done    map[string]bool
	answers []InlineAnswer
}

func (q *inlineQueries) ask(id string, at time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.asked == nil {
		q.asked, q.done = map[string]time.Time{}, map[string]bool{}
	}
	if _, ok := q.asked[id]; !ok {
		q.asked[id] = at
	}
}

// inlineSeq numbers the queries InlineQuery makes.
var inlineSeq struct {
	sync.Mutex
	n int64
}

// InlineQuery is an inline query from userID, typed in a chat of
// chatType ("sender", "private", "group", "supergroup", "channel"),
// asked now: the fake takes one answer to it within InlineTimeout.
func (s *Server) InlineQuery(userID int64, query, chatType string) *models.Update {
	inlineSeq.Lock()
	inlineSeq.n++
	id := "9137975451093" + strconv.FormatInt(inlineSeq.n, 10)
	inlineSeq.Unlock()
	s.inline.ask(id, s.now())
	return &models.Update{InlineQuery: &models.InlineQuery{
		ID: id, Query: query, ChatType: chatType,
		From: &models.User{ID: userID, FirstName: "User" + strconv.FormatInt(userID, 10)},
	}}
}

// AskInline makes a recorded (or built) inline query the fake's, asked
// now.
func (s *Server) AskInline(u *models.Update) *models.Update {
	if u.InlineQuery != nil {
		s.inline.ask(u.InlineQuery.ID, s.now())
	}
	return u
}

// InlineAnswers are the answers the fake took, in order.
func (s *Server) InlineAnswers() []InlineAnswer {
	s.inline.mu.Lock()
	defer s.inline.mu.Unlock()
	return append([]InlineAnswer(nil), s.inline.answers...)
}

// answerInlineQuery refuses what Telegram refuses: an unknown, answered
// or expired query, more than 50 results, an id empty, past 64 bytes or
// repeated.
func (s *Server) answerInlineQuery(w http.ResponseWriter, params map[string]string) {
	var raw []struct {
		Type        string          `json:"type"`
		ID          string          `json:"id"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		ReplyMarkup json.RawMessage `json:"reply_markup"`
		Content     struct {
			Text string `json:"message_text"`
		} `json:"input_message_content"`
	}
	if err := json.Unmarshal([]byte(params["results"]), &raw); err != nil {
		writeFailure(w, badRequest("can't parse inline query results JSON object"))
		return
	}
	id, now := params["inline_query_id"], s.now()
	q := &s.inline
	q.mu.Lock()
	defer q.mu.Unlock()
	asked, known := q.asked[id]
	switch {
	case !known || q.done[id] || now.Sub(asked) > InlineTimeout:
		writeFailure(w, mustRecorded("answer_inline_query_too_old.json"))
		return
	case len(raw) > 50:
		writeFailure(w, mustRecorded("answer_inline_results_too_much.json"))
		return
	}
	ans := InlineAnswer{QueryID: id, CacheTime: int(parseInt(params["cache_time"])), IsPersonal: parseBool(params["is_personal"])}
	seen := map[string]bool{}
	for _, r := range raw {
		switch {
		case r.ID == "" || len(r.ID) > 64:
			writeFailure(w, mustRecorded("answer_inline_result_id_invalid.json"))
			return
		case seen[r.ID]:
			writeFailure(w, mustRecorded("answer_inline_result_id_duplicate.json"))
			return
		case r.Content.Text == "":
			writeFailure(w, badRequest("message text is empty"))
			return
		}
		seen[r.ID] = true
		res := InlineResult{Type: r.Type, ID: r.ID, Title: r.Title, Description: r.Description, Text: r.Content.Text}
		if len(r.ReplyMarkup) > 0 && string(r.ReplyMarkup) != "null" {
			res.ReplyMarkup = string(r.ReplyMarkup)
		}
		ans.Results = append(ans.Results, res)
	}
	q.done[id] = true
	q.answers = append(q.answers, ans)
	writeOK(w, true)
}
