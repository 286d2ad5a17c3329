package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// recorded decodes one of the updates other projects recorded (see
// internal/telegramtest/testdata/README.md), as the runtimes do: what the
// library cannot read is left out.
func recorded(t *testing.T, name string) *models.Update {
	t.Helper()
	u, _, err := telegram.DecodeUpdate(telegramtest.Recorded(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// chatLog is a module that keeps what a chat's changes told it.
type chatLog struct {
	mu      sync.Mutex
	changes []app.ChatChange
	left    []app.MemberLeft
}

func (l *chatLog) factory() app.Factory {
	return app.Factory{Name: "chatlog", New: func(d app.Deps) (*app.Module, error) {
		return &app.Module{Name: "chatlog",
			OnChatChange: func(_ context.Context, ch app.ChatChange) error {
				l.mu.Lock()
				defer l.mu.Unlock()
				l.changes = append(l.changes, ch)
				return nil
			},
			OnMemberLeft: func(_ context.Context, m app.MemberLeft) error {
				l.mu.Lock()
				defer l.mu.Unlock()
				l.left = append(l.left, m)
				return nil
			},
			Callbacks: []app.Callback{{Prefix: "p:", Handler: press}},
		}, nil
	}}
}

func (l *chatLog) seen() []app.ChatChange {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.changes)
}

// press does what its data says, as handlers do.
func press(ctx context.Context, r *app.CallbackRequest) error {
	switch strings.TrimPrefix(r.Data, "p:") {
	case "toast":
		return r.Answer(ctx, "done")
	case "twice":
		_ = r.Answer(ctx, "first")
		return r.Answer(ctx, "second")
	case "fail":
		return errors.New("the store is down")
	case "panic":
		panic("a bug")
	case "edit":
		return r.Edit(ctx, "edited", nil)
	}
	return nil
}

// answers are the answerCallbackQuery calls for query id, with their texts.
func answers(b *apptest.Bot, id string) []string {
	var out []string
	for _, c := range b.Srv.Calls("answerCallbackQuery") {
		if c.Params["callback_query_id"] == id {
			out = append(out, c.Params["text"])
		}
	}
	return out
}

func TestEveryPressIsAnsweredExactlyOnceWhateverItsHandlerDid(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"a handler that answers nothing: answered silently", "p:quiet", ""},
		{"a handler's toast", "p:toast", "done"},
		{"a handler that answers twice: the first only", "p:twice", "first"},
		{"a handler that fails: an apology", "p:fail", "Sorry, that did not work. Please try again."},
		{"a handler that panics: an apology", "p:panic", "Sorry, that did not work. Please try again."},
		{"data of no module: the stale toast", "x:1", app.StaleButtonToast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l chatLog
			b := apptest.New(t, []app.Factory{l.factory()})
			u := telegramtest.Press(apptest.Group, apptest.User, 5, tt.data)
			if err := b.Handle(u); err != nil {
				t.Fatalf("HandleUpdate = %v; a press is answered, not retried", err)
			}
			if got := answers(b, u.CallbackQuery.ID); len(got) != 1 || got[0] != tt.want {
				t.Fatalf("answers = %q, want exactly [%q]", got, tt.want)
			}
		})
	}
}

// Telegram sends a press on an old message with an InaccessibleMessage:
// the edit still targets the chat and message it names.
func TestAPressOnAnInaccessibleMessageEditsTheMessageTelegramNamed(t *testing.T) {
	var l chatLog
	b := apptest.New(t, []app.Factory{l.factory()})
	u := recorded(t, "update_callback_inaccessible.json")
	u.CallbackQuery.Data = "p:edit"
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	edits := b.Srv.Calls("editMessageText")
	if len(edits) != 1 || edits[0].Params["chat_id"] != "238051153" || edits[0].Params["message_id"] != "875400" {
		t.Fatalf("edits = %+v, want one of chat 238051153 message 875400", edits)
	}
	if got := answers(b, u.CallbackQuery.ID); len(got) != 1 {
		t.Fatalf("answers = %q, want one", got)
	}
}

func TestAPressOnAnInlineMessageIsAnsweredClearlyAndRunsNothing(t *testing.T) {
	var l chatLog
	b := apptest.New(t, []app.Factory{l.factory()})
	u := recorded(t, "update_callback_inline.json")
	u.CallbackQuery.Data = "p:edit"
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := answers(b, u.CallbackQuery.ID); len(got) != 1 || got[0] == "" {
		t.Fatalf("answers = %q, want one toast", got)
	}
	if n := len(b.Srv.Calls("editMessageText")); n != 0 {
		t.Fatalf("%d edits of a message that is not the bot's", n)
	}
}

func TestAChatsLifeReachesEveryModuleOnce(t *testing.T) {
	tests := []struct {
		update string
		want   []app.ChatChange
		greets int
	}{
		{"update_migrate_to_chat_id.json", []app.ChatChange{{ChatID: -4518810793, MovedTo: -1002471352452}}, 0},
		{"update_migrate_from_chat_id.json", []app.ChatChange{{ChatID: -4518810793, MovedTo: -1002471352452}}, 0},
		{"update_my_chat_member_kicked_supergroup.json", []app.ChatChange{{ChatID: -1002352533321}}, 0},
		{"update_my_chat_member_unknown_old_status.json", []app.ChatChange{{ChatID: -1002352533321}}, 0}, // the new status is enough
		{"update_my_chat_member_blocked_private.json", []app.ChatChange{{ChatID: 2063236800}}, 0},
		{"update_my_chat_member_added_group.json", nil, 1},
		{"update_my_chat_member_promoted_group.json", nil, 0},
		{"update_my_chat_member_admin_channel.json", nil, 0}, // no command works in a channel: no greeting
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.update, ".json"), func(t *testing.T) {
			var l chatLog
			b := apptest.New(t, []app.Factory{l.factory()})
			u := recorded(t, tt.update)
			for range 2 { // delivered, then redelivered: handled once
				if err := b.Handle(u); err != nil {
					t.Fatal(err)
				}
			}
			if got := l.seen(); !slices.Equal(got, tt.want) {
				t.Fatalf("the module heard %+v, want %+v", got, tt.want)
			}
			if got := len(b.Srv.Messages()); got != tt.greets {
				t.Fatalf("%d messages sent, want %d", got, tt.greets)
			}
		})
	}
}

// A member who left a group, or was removed, reaches every module's
// OnMemberLeft once, as the user who left (not the one who removed them),
// and is no change of the chat's life.
func TestAMemberWhoLeftReachesEveryModuleOnce(t *testing.T) {
	tests := []struct {
		update string
		want   app.MemberLeft
	}{
		{"update_left_chat_member_removed_supergroup.json", app.MemberLeft{ChatID: -1001283156137, UserID: 256676752}},
		{"update_left_chat_member_left_supergroup.json", app.MemberLeft{ChatID: -1001043020159, UserID: 216024544}},
		{"update_left_chat_member_left_group.json", app.MemberLeft{ChatID: -4030233224, UserID: 5815704115}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.update, ".json"), func(t *testing.T) {
			var l chatLog
			b := apptest.New(t, []app.Factory{l.factory()})
			u := recorded(t, tt.update)
			for range 2 { // delivered, then redelivered: handled once
				if err := b.Handle(u); err != nil {
					t.Fatal(err)
				}
			}
			l.mu.Lock()
			defer l.mu.Unlock()
			if !slices.Equal(l.left, []app.MemberLeft{tt.want}) || len(l.changes) != 0 {
				t.Fatalf("the module heard members leave %+v and chat changes %+v, want %+v and none", l.left, l.changes, tt.want)
			}
			if n := len(b.Srv.Messages()); n != 0 {
				t.Fatalf("%d messages sent for a member leaving", n)
			}
		})
	}
}

// A group that re-adds the bot is greeted once a day, not on every re-add.
func TestABotReaddedWithinADayGreetsOnce(t *testing.T) {
	var l chatLog
	b := apptest.New(t, []app.Factory{l.factory()})
	raw := telegramtest.Recorded(t, "update_my_chat_member_added_group.json")
	for id := range 3 {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m["update_id"] = 1000 + id // a new update each time
		again, _ := json.Marshal(m)
		u, _, err := telegram.DecodeUpdate(again)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(b.Srv.Messages()); got != 1 {
		t.Fatalf("%d greetings, want 1", got)
	}
}

// A send's answer that a group became a supergroup (the client resent the
// message there) or that a chat is gone tells the modules too.
func TestASendsAnswerTellsTheModulesTheChatMovedOrIsGone(t *testing.T) {
	var l chatLog
	b := apptest.New(t, []app.Factory{l.factory()})
	b.Srv.Upgrade(-4518810793, -1002471352452)
	b.Srv.Block(42)
	for _, chat := range []int64{-4518810793, 42} {
		_, _ = b.App.Messenger().Send(t.Context(), app.Message{ChatID: chat, Text: "hi"})
	}
	want := []app.ChatChange{{ChatID: -4518810793, MovedTo: -1002471352452}, {ChatID: 42}}
	if got := l.seen(); !slices.Equal(got, want) {
		t.Fatalf("the module heard %+v, want %+v", got, want)
	}
}
