package telegramtest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func articles(n int, id func(i int) string) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"type": "article", "id": id(i), "title": "t", "input_message_content": map[string]string{"message_text": "m"}}
	}
	return out
}

func TestTheFakeRefusesAnInlineAnswerTelegramRefuses(t *testing.T) {
	byIndex := func(i int) string { return fmt.Sprint(i) }
	tooOld := "Bad Request: query is too old and response timeout expired or query ID is invalid"
	tests := []struct {
		name    string
		results []map[string]any
		late    time.Duration
		unknown bool
		refuse  string // "" when taken
	}{
		{"50 results are taken", articles(50, byIndex), 0, false, ""},
		{"a 51st result is refused", articles(51, byIndex), 0, false, "Bad Request: RESULTS_TOO_MUCH"},
		{"a 64-byte id is taken", articles(1, func(int) string { return strings.Repeat("x", 64) }), 0, false, ""},
		{"a 65-byte id is refused", articles(1, func(int) string { return strings.Repeat("x", 65) }), 0, false, "Bad Request: RESULT_ID_INVALID"},
		{"an empty id is refused", articles(1, func(int) string { return "" }), 0, false, "Bad Request: RESULT_ID_INVALID"},
		{"a repeated id is refused", articles(2, func(int) string { return "same" }), 0, false, "Bad Request: RESULT_ID_DUPLICATE"},
		{"an answer 10 s after the query is taken", articles(1, byIndex), 10 * time.Second, false, ""},
		{"an answer later than 10 s is refused", articles(1, byIndex), 10*time.Second + time.Millisecond, false, tooOld},
		{"an answer to a query never asked is refused", articles(1, byIndex), 0, true, tooOld},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
			srv := telegramtest.New(t, telegramtest.WithClock(c.Now))
			id := srv.InlineQuery(3, "btc", "sender").InlineQuery.ID
			if tt.unknown {
				id = "424242"
			}
			c.advance(tt.late)
			r := post(t, srv, "answerInlineQuery", map[string]any{"inline_query_id": id, "results": tt.results})
			switch {
			case tt.refuse == "" && !r.OK:
				t.Fatalf("refused: %s", r.Description)
			case tt.refuse != "" && (r.OK || r.Description != tt.refuse || r.ErrorCode != 400):
				t.Fatalf("answered %d %q, want 400 %q", r.ErrorCode, r.Description, tt.refuse)
			}
			if taken := len(srv.InlineAnswers()); taken != map[bool]int{true: 1, false: 0}[tt.refuse == ""] {
				t.Errorf("%d answers taken", taken)
			}
		})
	}
}

func TestTheFakeTakesOneAnswerPerInlineQuery(t *testing.T) {
	srv := telegramtest.New(t)
	id := srv.InlineQuery(3, "", "sender").InlineQuery.ID
	answer := map[string]any{"inline_query_id": id, "results": articles(1, func(int) string { return "a" }), "cache_time": 5, "is_personal": true}
	if r := post(t, srv, "answerInlineQuery", answer); !r.OK {
		t.Fatalf("first answer refused: %s", r.Description)
	}
	if r := post(t, srv, "answerInlineQuery", answer); r.OK || !strings.Contains(r.Description, "query is too old") {
		t.Fatalf("second answer: %+v, want refused", r)
	}
	got := srv.InlineAnswers()
	if len(got) != 1 || got[0].CacheTime != 5 || !got[0].IsPersonal || got[0].Results[0].Text != "m" {
		t.Fatalf("answers %+v", got)
	}
}

func TestARecordedInlineQueryIsTheFakesOnceAsked(t *testing.T) {
	srv := telegramtest.New(t)
	for _, name := range []string{"update_inline_query_empty.json", "update_inline_query_group.json"} {
		u := srv.AskInline(telegramtest.RecordedUpdate(t, name))
		if u.InlineQuery == nil || u.InlineQuery.From == nil {
			t.Fatalf("%s: no inline query from a user", name)
		}
		if r := post(t, srv, "answerInlineQuery", map[string]any{"inline_query_id": u.InlineQuery.ID, "results": []any{}}); !r.OK {
			t.Fatalf("%s: answer refused: %s", name, r.Description)
		}
	}
}
