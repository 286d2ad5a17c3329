package telegram_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// lifecycle are the classes the engine acts on; an answer is in at most one.
var lifecycle = []error{app.ErrChatMigrated, app.ErrChatGone, app.ErrSendRefused, app.ErrNoRights}

func TestEveryRecordedFinalAnswerIsClassifiedByWhatTheEngineDoesWithTheChat(t *testing.T) {
	tests := []struct {
		recorded string
		class    error // nil: none of the lifecycle classes
		app      error
	}{
		// Gone: prune the chat.
		{"answer_blocked.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_user_deactivated.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_kicked_group.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_kicked_supergroup.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_group_deleted.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_not_member_supergroup.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_not_member_channel.json", app.ErrChatGone, app.ErrBlocked},
		{"answer_chat_not_found.json", app.ErrChatGone, app.ErrChatNotFound},
		{"answer_group_deactivated.json", app.ErrChatGone, app.ErrChatNotFound},
		// Refused for this send: drop it, keep the chat.
		{"answer_topic_closed.json", app.ErrSendRefused, app.ErrRejected},
		{"answer_topic_deleted.json", app.ErrSendRefused, app.ErrThreadNotFound},
		{"answer_thread_not_found.json", app.ErrSendRefused, app.ErrThreadNotFound},
		// No right to send: drop it; the chat may grant it back.
		{"answer_no_rights_text.json", app.ErrNoRights, app.ErrRejected},
		{"answer_no_rights_photos.json", app.ErrNoRights, app.ErrRejected},
		{"answer_no_rights_send.json", app.ErrNoRights, app.ErrRejected},
		{"answer_no_rights_channel.json", app.ErrNoRights, app.ErrRejected},
		{"answer_chat_write_forbidden.json", app.ErrNoRights, app.ErrRejected},
	}
	for _, tt := range tests {
		t.Run(tt.recorded, func(t *testing.T) {
			srv := telegramtest.New(t)
			f := telegramtest.RecordedFailure(t, tt.recorded)
			srv.FailNext("sendMessage", f)
			c, _ := newClient(t, srv)
			_, err := c.Send(t.Context(), app.Message{ChatID: -100123, ThreadID: 7, Text: "x"})
			if !errors.Is(err, tt.class) || !errors.Is(err, tt.app) {
				t.Fatalf("Send = %v, want %v and %v", err, tt.class, tt.app)
			}
			for _, other := range lifecycle {
				if other != tt.class && errors.Is(err, other) {
					t.Errorf("Send = %v, also %v", err, other)
				}
			}
			if !app.Permanent(err) {
				t.Errorf("Send = %v: a final answer must end the update (app.Permanent)", err)
			}
			var refused *telegram.APIError
			if !errors.As(err, &refused) || refused.Code != f.Code || refused.Description != f.Description {
				t.Errorf("the error keeps %+v, want code %d and %q", refused, f.Code, f.Description)
			}
			if n := len(srv.Calls("sendMessage")); n != 1 {
				t.Errorf("%d sendMessage calls; a final answer is not retried", n)
			}
		})
	}
}

// A refusal for rights names the kind of message the chat forbids, so a
// photo refused can be said in text; one that forbids text, or names no
// kind, has nothing to say it with.
func TestARefusalForRightsNamesWhatTheChatForbids(t *testing.T) {
	tests := []struct {
		recorded string
		right    string
		sayable  bool
	}{
		{"answer_no_rights_photos.json", "photos", true},
		{"answer_no_rights_text.json", "text messages", false},
		{"answer_no_rights_send.json", "", false},
		{"answer_no_rights_channel.json", "", false},
		{"answer_chat_write_forbidden.json", "", false},
		{"answer_topic_closed.json", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.recorded, func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.FailNext("sendPhoto", telegramtest.RecordedFailure(t, tt.recorded))
			c, _ := newClient(t, srv)
			_, err := c.SendPhoto(t.Context(), app.Photo{ChatID: -100123, PNG: []byte("png")})
			if got := app.LackedRight(err); got != tt.right {
				t.Errorf("LackedRight(%v) = %q, want %q", err, got, tt.right)
			}
			if text, ok := app.NoRightText(err); ok != tt.sayable || (ok && !strings.Contains(text, tt.right)) {
				t.Errorf("NoRightText(%v) = %q, %v; want said %v", err, text, ok, tt.sayable)
			}
		})
	}
}

func TestOtherAnswersAreOfNoLifecycleClass(t *testing.T) {
	tests := []struct {
		name      string
		failure   telegramtest.Failure
		permanent bool
	}{
		{"another bad request is rejected as made", telegramtest.Failure{Code: 400, Description: "Bad Request: can't parse entities"}, true},
		{"a server error is retried later", telegramtest.Failure{Code: 502, Description: "Bad Gateway"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.FailNext("sendMessage", tt.failure)
			c, _ := newClient(t, srv)
			_, err := c.Send(t.Context(), app.Message{ChatID: 1, Text: "x"})
			if err == nil || app.Permanent(err) != tt.permanent {
				t.Fatalf("Send = %v, want permanent %v", err, tt.permanent)
			}
			for _, class := range lifecycle {
				if errors.Is(err, class) {
					t.Errorf("Send = %v, of class %v", err, class)
				}
			}
		})
	}
}

func TestA429IsWaitedOutForAsLongAsItSays(t *testing.T) {
	tests := []struct {
		recorded string
		budget   time.Duration
		waited   []time.Duration // then sent
		flood    time.Duration   // or failed with this RetryAfter
	}{
		{"answer_flood_no_parameters.json", 30 * time.Second, []time.Duration{3 * time.Second}, 0},
		{"answer_flood.json", time.Minute, []time.Duration{34 * time.Second}, 0},
		{"answer_flood.json", 30 * time.Second, nil, 34 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.recorded+" within "+tt.budget.String(), func(t *testing.T) {
			srv := telegramtest.New(t)
			srv.FailNext("sendMessage", telegramtest.RecordedFailure(t, tt.recorded))
			c, w := newClient(t, srv, telegram.WithRetryBudget(tt.budget))
			_, err := c.Send(t.Context(), app.Message{ChatID: 1, Text: "x"})
			var flood *app.FloodError
			switch {
			case tt.flood == 0 && err != nil:
				t.Fatalf("Send = %v, want sent after the wait", err)
			case tt.flood != 0 && (!errors.As(err, &flood) || flood.RetryAfter != tt.flood):
				t.Fatalf("Send = %v, want a FloodError of %s", err, tt.flood)
			}
			if len(w.d) != len(tt.waited) || (len(w.d) > 0 && w.d[0] != tt.waited[0]) {
				t.Fatalf("waited %v, want %v", w.d, tt.waited)
			}
		})
	}
}
