package core_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestCommandHooksSeeEveryCommandAndTheirFailureChangesNoReply(t *testing.T) {
	var mu sync.Mutex
	var events []app.CommandEvent
	watcher := app.Factory{Name: "watcher", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "watcher", OnCommand: func(_ context.Context, ev app.CommandEvent) error {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev)
			return errors.New("hook storage is down")
		}}, nil
	}}
	b := apptest.New(t, append(builtin.Catalogue(), watcher))
	u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
	if err := b.Handle(u); err != nil {
		t.Fatalf("a command whose hook failed: %v; want it handled and acknowledged (a count is not owed)", err)
	}
	if err := b.Handle(u); err != nil {
		t.Fatalf("its redelivery: %v; want it skipped as handled", err)
	}
	b.MustSay(apptest.Group, apptest.User, "/nope") // unknown: not a command event
	if len(events) != 1+(3-1) /* the hook's tries, the redelivery none */ || events[0].Module != "misc" || events[0].Command != "ping" || events[0].ChatID != apptest.Group || events[0].UserID != apptest.User || events[0].Update != u.ID {
		t.Fatalf("events = %+v", events)
	}
	if b.Last() != "pong" {
		t.Fatalf("a failing hook changed the reply: %q", b.Last())
	}
}

// The hook runs once, before HandleUpdate returns, and a redelivery finds
// the update handled.
func TestAHookRunsOnceBeforeTheUpdateReturnsAndARedeliveryFindsItHandled(t *testing.T) {
	for _, c := range []struct {
		name  string
		store storage.KVProvider
	}{
		{"memory", memory.New()},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			var hooked atomic.Int32
			watcher := app.Factory{Name: "watcher", New: func(app.Deps) (*app.Module, error) {
				return &app.Module{Name: "watcher", OnCommand: func(context.Context, app.CommandEvent) error {
					hooked.Add(1)
					return nil
				}}, nil
			}}
			a, err := core.New(c.store, client, core.WithModules([]app.Factory{misc.Factory, watcher}), core.WithBotUsername("miti99bot"))
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the delivery, then Telegram's redelivery
				if err := a.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 9)); err != nil {
					t.Fatal(err)
				}
				if got := hooked.Load(); got != 1 {
					t.Fatalf("the hook ran %d times when HandleUpdate returned, want 1", got)
				}
			}
			if got := srv.Messages(); len(got) != 1 {
				t.Fatalf("%d replies, want 1", len(got))
			}
		})
	}
}

// A command is counted before it is recorded handled: were its process to
// die between the two, the update is not yet done for the next delivery,
// which runs it again and counts it once (the hook knows its update).
// Recorded first, the count would die with the process (simulation seed 9,
// step 190: killed-count).
func TestAHookRunsBeforeTheUpdateIsRecordedHandled(t *testing.T) {
	store := memory.New()
	srv := telegramtest.New(t)
	newApp := func(hook func(context.Context, app.CommandEvent) error) *core.App {
		client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		watcher := app.Factory{Name: "watcher", New: func(app.Deps) (*app.Module, error) {
			return &app.Module{Name: "watcher", OnCommand: hook}, nil
		}}
		a, err := core.New(store, client, core.WithModules([]app.Factory{misc.Factory, watcher}), core.WithBotUsername("miti99bot"))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	u := withID(telegramtest.Text(private, user, "/ping"), 11)
	other := newApp(func(context.Context, app.CommandEvent) error { return nil })
	var seen error
	first := newApp(func(ctx context.Context, _ app.CommandEvent) error {
		seen = other.HandleUpdate(ctx, u) // what a redelivery meets now
		return nil
	})
	if err := first.HandleUpdate(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(seen, app.ErrInFlight) {
		t.Fatalf("a redelivery during the count met %v; want the update in flight, not yet recorded handled", seen)
	}
	if got := srv.Messages(); len(got) != 1 {
		t.Fatalf("%d replies, want 1", len(got))
	}
}
