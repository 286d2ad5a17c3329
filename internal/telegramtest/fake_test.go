package telegramtest_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestGetUpdatesGivesAtMost100FromTheOffsetConfirmed(t *testing.T) {
	srv := telegramtest.New(t)
	updates := make([]*models.Update, 150)
	for i := range updates {
		updates[i] = telegramtest.Text(1, 1, "hi")
	}
	ids := srv.Push(updates...)
	batch := func(params map[string]any) []models.Update {
		t.Helper()
		r := post(t, srv, "getUpdates", params)
		var got []models.Update
		if err := json.Unmarshal(r.Result, &got); err != nil {
			t.Fatalf("getUpdates answered %s", r.raw)
		}
		return got
	}
	tests := []struct {
		name          string
		params        map[string]any
		first, length int // index into ids
		pending       int
	}{
		{"no offset: the oldest 100, none confirmed", map[string]any{}, 0, 100, 150},
		{"a limit above 100 is 100", map[string]any{"limit": 500}, 0, 100, 150},
		{"a smaller limit is kept", map[string]any{"limit": 10}, 0, 10, 150},
		{"an offset confirms every update below it", map[string]any{"offset": ids[100]}, 100, 50, 50},
		{"past the last: nothing, all confirmed", map[string]any{"offset": ids[149] + 1}, 0, 0, 0},
	}
	for _, tt := range tests {
		got := batch(tt.params)
		if len(got) != tt.length || (tt.length > 0 && got[0].ID != ids[tt.first]) {
			t.Fatalf("%s: %d updates from %v", tt.name, len(got), got)
		}
		if p := srv.Pending(); p != tt.pending {
			t.Fatalf("%s: %d pending, want %d", tt.name, p, tt.pending)
		}
	}
}

func TestAChatCanBeMadeToAnswerWithARecordedBody(t *testing.T) {
	srv := telegramtest.New(t)
	f := telegramtest.RecordedFailure(t, "answer_kicked_supergroup.json")
	srv.FailChat(-100, f)
	r := post(t, srv, "sendMessage", map[string]any{"chat_id": -100, "text": "x"})
	if !bytes.Equal(r.raw, telegramtest.Recorded(t, "answer_kicked_supergroup.json")) || r.ErrorCode != 403 {
		t.Fatalf("answered %s, want the recorded body byte for byte, with HTTP 403", r.raw)
	}
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": -200, "text": "x"}); !r.OK {
		t.Fatalf("another chat refused: %s", r.raw)
	}
}

func TestAClosedTopicRefusesItsSendsOnly(t *testing.T) {
	srv := telegramtest.New(t)
	srv.CloseTopic(-100, 7)
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": -100, "message_thread_id": 7, "text": "x"}); r.Description != "Bad Request: TOPIC_CLOSED" {
		t.Fatalf("a send to the closed topic answered %s", r.raw)
	}
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": -100, "message_thread_id": 8, "text": "x"}); !r.OK {
		t.Fatalf("another topic refused: %s", r.raw)
	}
}

func TestAnUpgradedGroupAnswersItsOldIdWithTheNewOneAndSaysSoInUpdates(t *testing.T) {
	srv := telegramtest.New(t)
	const old, moved = -4518810793, -1002471352452
	srv.Upgrade(old, moved)

	r := post(t, srv, "sendMessage", map[string]any{"chat_id": old, "text": "x"})
	if r.ErrorCode != 400 || r.Parameters.MigrateTo != moved {
		t.Fatalf("a send to the old id answered %s, want 400 with migrate_to_chat_id %d", r.raw, int64(moved))
	}
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": moved, "text": "x"}); !r.OK {
		t.Fatalf("the supergroup refused: %s", r.raw)
	}
	var got []models.Update
	_ = json.Unmarshal(post(t, srv, "getUpdates", map[string]any{"timeout": 0}).Result, &got)
	if len(got) != 2 || got[0].Message.Chat.ID != old || got[0].Message.MigrateToChatID != moved ||
		got[1].Message.Chat.ID != moved || got[1].Message.MigrateFromChatID != old {
		t.Fatalf("updates %+v, want the two service messages of the move, old chat first", got)
	}
}

func TestTheOverallRateIs30MessagesASecond(t *testing.T) {
	clk := &clock{t: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	srv := telegramtest.New(t, telegramtest.WithTelegramLimits(), telegramtest.WithClock(clk.Now))
	for i := range 30 {
		if r := post(t, srv, "sendMessage", map[string]any{"chat_id": i + 1, "text": "x"}); !r.OK {
			t.Fatalf("send %d of the first second: %s", i, r.raw)
		}
	}
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": 99, "text": "x"}); r.ErrorCode != 429 || r.Parameters.RetryAfter != 1 {
		t.Fatalf("the 31st answered %s, want 429 retry_after 1", r.raw)
	}
	clk.advance(time.Second / 30)
	if r := post(t, srv, "sendMessage", map[string]any{"chat_id": 99, "text": "x"}); !r.OK {
		t.Fatalf("a thirtieth of a second later: %s", r.raw)
	}
	if n := srv.Limited(); n != 1 {
		t.Fatalf("Limited = %d, want 1", n)
	}
}
