package telegramtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// reply is a Bot API answer as the wire carries it.
type reply struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int   `json:"retry_after"`
		MigrateTo  int64 `json:"migrate_to_chat_id"`
	} `json:"parameters"`
	raw []byte
}

// post calls method on srv as a Bot API client does, with a JSON body.
func post(t *testing.T, srv *telegramtest.Server, method string, params map[string]any) reply {
	t.Helper()
	body, _ := json.Marshal(params)
	resp, err := http.Post(srv.URL+"/bot"+srv.Token+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r reply
	if r.raw, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r.raw, &r); err != nil {
		t.Fatalf("%s answered %q: %v", method, r.raw, err)
	}
	if !r.OK && resp.StatusCode != r.ErrorCode {
		t.Fatalf("%s answered HTTP %d with error_code %d", method, resp.StatusCode, r.ErrorCode)
	}
	return r
}

// clock is a time tests move themselves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func keyboard(data string) string {
	b, _ := json.Marshal(map[string]any{"inline_keyboard": [][]map[string]string{{{"text": "b", "callback_data": data}}}})
	return string(b)
}

func TestEveryMessageIsHeldToTelegramsLimits(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
		refuse string // the description, "" when sent
	}{
		{"4096 characters are sent", map[string]any{"text": strings.Repeat("a", 4096)}, ""},
		{"4097 characters are too long", map[string]any{"text": strings.Repeat("a", 4097)}, "Bad Request: message is too long"},
		{"an emoji is two UTF-16 units: 2048 fit", map[string]any{"text": strings.Repeat("😀", 2048)}, ""},
		{"2049 emoji do not", map[string]any{"text": strings.Repeat("😀", 2049)}, "Bad Request: message is too long"},
		{"HTML tags do not count", map[string]any{"text": "<b>" + strings.Repeat("a", 4096) + "</b>", "parse_mode": "HTML"}, ""},
		{"64 bytes of callback data fit", map[string]any{"text": "x", "reply_markup": keyboard(strings.Repeat("d", 64))}, ""},
		{"65 bytes do not", map[string]any{"text": "x", "reply_markup": keyboard(strings.Repeat("d", 65))}, "Bad Request: BUTTON_DATA_INVALID"},
		{"bytes, not characters, count", map[string]any{"text": "x", "reply_markup": keyboard(strings.Repeat("é", 33))}, "Bad Request: BUTTON_DATA_INVALID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			tt.params["chat_id"] = 42
			r := post(t, srv, "sendMessage", tt.params)
			if tt.refuse == "" && !r.OK {
				t.Fatalf("refused: %s", r.raw)
			}
			if tt.refuse != "" && (r.OK || r.ErrorCode != 400 || r.Description != tt.refuse) {
				t.Fatalf("answered %s, want 400 %q", r.raw, tt.refuse)
			}
		})
	}
}

func TestAGroupGetsAtMost20MessagesInAnyMinuteThenA429(t *testing.T) {
	clk := &clock{t: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	srv := telegramtest.New(t, telegramtest.WithGroupLimit(20), telegramtest.WithClock(clk.Now))
	send := func(chat int64) reply {
		return post(t, srv, "sendMessage", map[string]any{"chat_id": chat, "text": "x"})
	}
	for i := range 10 {
		if r := send(-100); !r.OK {
			t.Fatalf("send %d at 0 s: %s", i, r.raw)
		}
	}
	clk.advance(30 * time.Second)
	for i := range 10 {
		if r := send(-100); !r.OK {
			t.Fatalf("send %d at 30 s: %s", i, r.raw)
		}
	}
	steps := []struct {
		after time.Duration
		retry int // 0: sent
	}{
		{0, 30},               // the first ten leave the minute at 60 s
		{29 * time.Second, 1}, // 59 s
		{time.Second, 0},      // 60 s: they left
		{0, 0},                // ten places freed
		{30 * time.Second, 0}, // 90 s: the second ten left too
	}
	for i, s := range steps {
		clk.advance(s.after)
		r := send(-100)
		switch {
		case s.retry == 0 && !r.OK:
			t.Fatalf("step %d: refused %s", i, r.raw)
		case s.retry != 0 && (r.ErrorCode != 429 || r.Parameters.RetryAfter != s.retry):
			t.Fatalf("step %d: answered %s, want 429 retry_after %d", i, r.raw, s.retry)
		}
	}
	if r := send(42); !r.OK {
		t.Fatalf("a private chat is not a group: %s", r.raw)
	}
}
