package core_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// asker holds a two-step conversation: /ask asks a name, the name step
// asks an age, the age step answers and ends.
type asker struct {
	name   string
	ends   chan app.EndReason // what OnConversationEnd heard
	steps  atomic.Int32       // how many steps ran
	onStep func()             // runs inside each step, after it moved
	before func()             // runs inside each step, before it moves
	silent bool               // no OnConversationEnd: the engine speaks
	ageTTL time.Duration      // how long the age step waits (0: a minute)
}

func newAsker(name string) *asker { return &asker{name: name, ends: make(chan app.EndReason, 8)} }

func (k *asker) factory() app.Factory {
	return app.Factory{Name: k.name, New: func(d app.Deps) (*app.Module, error) {
		m := &app.Module{
			Name: k.name,
			Commands: []app.Command{{Name: k.name, Description: "Ask a name", Handler: func(ctx context.Context, r *app.Request) error {
				if err := d.Conversations.Start(ctx, app.ConversationOf(r, "name", 0, nil)); err != nil {
					return err
				}
				_, err := r.Ask(ctx, k.name+": your name?")
				return err
			}}},
			Steps: map[string]app.TextHandler{
				"name": func(ctx context.Context, r *app.TextRequest) error {
					k.steps.Add(1)
					if k.before != nil {
						k.before()
					}
					ttl := k.ageTTL
					if ttl == 0 {
						ttl = time.Minute
					}
					if err := r.Continue(ctx, "age", ttl, []byte(r.Text)); err != nil {
						return err
					}
					if k.onStep != nil {
						k.onStep()
					}
					_, err := r.Ask(ctx, "hello "+r.Text+", your age?")
					return err
				},
				"age": func(ctx context.Context, r *app.TextRequest) error {
					k.steps.Add(1)
					_, err := r.Reply(ctx, string(r.Conversation.State)+" is "+r.Text)
					return err
				},
			},
		}
		if !k.silent {
			m.OnConversationEnd = func(_ context.Context, e app.ConversationEnd) error {
				k.ends <- e.Reason
				return nil
			}
		}
		return m, nil
	}}
}

// taker is a module whose OnText takes the messages that start with its
// prefix ("" takes everything), as a game takes a guess.
func taker(name, prefix string) app.Factory {
	return app.Factory{Name: name, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: name, OnText: func(ctx context.Context, r *app.TextRequest) (bool, error) {
			if !strings.HasPrefix(r.Text, prefix) {
				return false, nil
			}
			_, err := r.Reply(ctx, name+" took "+r.Text)
			return true, err
		}}, nil
	}}
}

type convBot struct {
	*apptest.Bot
	clk *apptest.Clock
}

func newConvBot(t *testing.T, mods ...app.Factory) *convBot {
	t.Helper()
	return newConvBotOn(t, memory.New(), mods...)
}

func newConvBotOn(t *testing.T, p storage.KVProvider, mods ...app.Factory) *convBot {
	t.Helper()
	clk := apptest.NewClock(apptest.T0)
	return &convBot{Bot: apptest.NewOnStore(t, p, telegramtest.New(t), nil, mods, core.WithClock(clk.Now)), clk: clk}
}

// replyToBot is text from userID in chatID as a reply to the bot's message.
func replyToBot(chatID, userID int64, text string) *models.Update {
	u := telegramtest.Text(chatID, userID, text)
	u.Message.ReplyToMessage = &models.Message{ID: 1, From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}, Chat: u.Message.Chat}
	return u
}

func (b *convBot) tick(t *testing.T) {
	t.Helper()
	if _, err := b.App.Timers().Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
}
