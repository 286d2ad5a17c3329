package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Call is one Bot API call the bot made that a checker reads, with what
// the fake answered. Step is the step of the life that was running: the
// driver runs one step at a time, so every call belongs to exactly one.
type Call struct {
	Step     int
	Method   string // sendMessage | editMessageText | answerCallbackQuery | answerInlineQuery
	Chat     int64
	Thread   int
	Text     string
	Markup   string
	QueryID  string // a callback query's or an inline query's
	OK       bool
	Code     int    // the error_code of a refusal
	Message  int    // the sent message's id
	SentChat int64  // where it landed
	Proc     string // the process that made it
	Results  string // an inline query's answer's results (JSON)
}

// recorded are the methods the checkers need; the rest pass unrecorded.
var recorded = map[string]bool{"sendMessage": true, "editMessageText": true, "answerCallbackQuery": true, "answerInlineQuery": true}

// wire stands in front of the fake Bot API and records each answer's
// outcome, which the fake's own call log does not keep.
type wire struct {
	fake *telegramtest.Server
	mu   sync.Mutex
	step int
	log  []Call
}

func (w *wire) setStep(n int) { w.mu.Lock(); w.step = n; w.mu.Unlock() }

// since returns the calls recorded from index i on.
func (w *wire) since(i int) []Call {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Call(nil), w.log[i:]...)
}

func (w *wire) len() int { w.mu.Lock(); defer w.mu.Unlock(); return len(w.log) }

func (w *wire) ServeHTTP(rw http.ResponseWriter, r *http.Request) { w.serve(rw, r, "") }

// serve forwards one call of process proc to the fake.
func (w *wire) serve(rw http.ResponseWriter, r *http.Request, proc string) {
	params := peekParams(r)
	method := lastSegment(r.URL.Path)
	if !recorded[method] {
		w.fake.ServeHTTP(rw, r)
		return
	}
	cap := &capture{ResponseWriter: rw, code: http.StatusOK}
	w.fake.ServeHTTP(cap, r)
	var ans struct {
		OK     bool `json:"ok"`
		Code   int  `json:"error_code"`
		Result struct {
			ID   int `json:"message_id"`
			Chat struct {
				ID int64 `json:"id"`
			} `json:"chat"`
		} `json:"result"`
	}
	_ = json.Unmarshal(cap.buf.Bytes(), &ans)
	chat, _ := strconv.ParseInt(params["chat_id"], 10, 64)
	thread, _ := strconv.Atoi(params["message_thread_id"])
	c := Call{Method: method, Chat: chat, Thread: thread, Text: params["text"], Markup: params["reply_markup"],
		QueryID: params["callback_query_id"], OK: ans.OK, Code: ans.Code, Message: ans.Result.ID, SentChat: ans.Result.Chat.ID, Proc: proc}
	if method == "answerInlineQuery" {
		c.QueryID, c.Results = params["inline_query_id"], params["results"]
	}
	w.mu.Lock()
	c.Step = w.step
	w.log = append(w.log, c)
	w.mu.Unlock()
}

func lastSegment(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// capture copies an answer's body as it is written.
type capture struct {
	http.ResponseWriter
	code int
	buf  bytes.Buffer
}

func (c *capture) WriteHeader(code int) { c.code = code; c.ResponseWriter.WriteHeader(code) }

func (c *capture) Write(b []byte) (int, error) {
	c.buf.Write(b)
	return c.ResponseWriter.Write(b)
}
