package core_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// whoami replies with who its command speaks for, and records what the
// command hook heard.
func whoami(heard *[]app.CommandEvent, mu *sync.Mutex) app.Factory {
	return app.Factory{Name: "whoami", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{
			Name: "whoami",
			Commands: []app.Command{{Name: "whoami", Description: "Who is speaking", Handler: func(ctx context.Context, r *app.Request) error {
				s := r.Sender
				_, err := r.Reply(ctx, fmt.Sprintf("id=%d user_id=%d chat=%v name=%q mention=%q role=%d", s.ID, r.UserID, s.Chat, s.Name, s.Mention(), r.Role))
				return err
			}}},
			OnCommand: func(_ context.Context, ev app.CommandEvent) error {
				mu.Lock()
				defer mu.Unlock()
				*heard = append(*heard, ev)
				return nil
			},
		}, nil
	}}
}

func TestAMessageSentOnBehalfOfAChatSpeaksAsThatChat(t *testing.T) {
	tests := []struct {
		name, recorded string
		want           string
		wantUser       string // the command event's username
	}{
		{"an anonymous admin is their group", "update_anonymous_admin.json",
			`id=-1001627609834 user_id=-1001627609834 chat=true name="shad15_bot_test_chat" mention="shad15_bot_test_chat" role=0`, ""},
		{"another group's anonymous admin is that group", "update_anonymous_admin_other_group.json",
			`id=-1001524536974 user_id=-1001524536974 chat=true name="house of ultron sys." mention="house of ultron sys." role=0`, "HU_sys"},
		{"a user writing as their channel is the channel", "update_sent_as_channel.json",
			`id=-1001883103905 user_id=-1001883103905 chat=true name="Our Memes" mention="Our Memes" role=0`, "our_kek_memes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var heard []app.CommandEvent
			b := apptest.New(t, []app.Factory{whoami(&heard, &mu)})
			u := telegramtest.Saying(telegramtest.RecordedUpdate(t, tt.recorded), "/whoami")
			if err := b.Handle(u); err != nil {
				t.Fatal(err)
			}
			if got := b.Last(); got != tt.want {
				t.Fatalf("reply %q\nwant  %q", got, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(heard) != 1 || heard[0].UserID != u.Message.SenderChat.ID || heard[0].Username != tt.wantUser {
				t.Fatalf("the hook heard %+v, want the chat %d (%q)", heard, u.Message.SenderChat.ID, tt.wantUser)
			}
		})
	}
}

func TestAUserSpeaksAsThemself(t *testing.T) {
	var mu sync.Mutex
	var heard []app.CommandEvent
	b := apptest.New(t, []app.Factory{whoami(&heard, &mu)})
	u := telegramtest.Text(group, owner, "/whoami")
	u.Message.From.FirstName, u.Message.From.LastName = "Ada", "Lovelace"
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`id=%d user_id=%d chat=false name="Ada Lovelace" mention="@user" role=%d`, owner, owner, app.RoleOwner)
	if got := b.Last(); got != want {
		t.Fatalf("reply %q\nwant  %q", got, want)
	}
}

// A linked channel's post arrives in its discussion group as an automatic
// forward: written for the channel, it asks nothing of the group, so even
// a command in it runs nothing.
func TestAChannelsAutomaticForwardIsNoCommand(t *testing.T) {
	var mu sync.Mutex
	var heard []app.CommandEvent
	b := apptest.New(t, []app.Factory{whoami(&heard, &mu)})
	u := telegramtest.Saying(telegramtest.RecordedUpdate(t, "update_channel_automatic_forward.json"), "/whoami")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if got := b.Replies(); len(got) != 0 {
		t.Fatalf("an automatic forward ran a command: %q", got)
	}
}

// A press comes from the real user, even an anonymous admin's: the
// recorded press names the user, not GroupAnonymousBot.
func TestAPressSpeaksAsTheUserWhoPressed(t *testing.T) {
	var got app.Actor
	f := app.Factory{Name: "presses", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "presses", Callbacks: []app.Callback{{Prefix: "remind:", Handler: func(_ context.Context, c *app.CallbackRequest) error {
			got = c.Sender
			if c.UserID != c.Sender.ID {
				t.Errorf("UserID %d, Sender %d", c.UserID, c.Sender.ID)
			}
			return nil
		}}}}, nil
	}}
	b := apptest.New(t, []app.Factory{f})
	var u models.Update
	u = *telegramtest.RecordedUpdate(t, "update_callback_anonymous_admin.json")
	if err := b.Handle(&u); err != nil {
		t.Fatal(err)
	}
	want := app.Actor{ID: 1952138591, Name: "Олексі Й", Username: "pokolpo"}
	if got != want {
		t.Fatalf("sender %+v, want %+v", got, want)
	}
}
