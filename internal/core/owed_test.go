package core_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/modules/stats"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// hookLog is a module's OnCommand hook that fails its first fails calls.
type hookLog struct {
	mu    sync.Mutex
	fails int
	calls []int64 // the update of each call
}

func (h *hookLog) factory(name string) app.Factory {
	return app.Factory{Name: name, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: name, OnCommand: func(_ context.Context, ev app.CommandEvent) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.calls = append(h.calls, ev.Update)
			if len(h.calls) <= h.fails {
				return errors.New("hook storage is down")
			}
			return nil
		}}, nil
	}}
}

func (h *hookLog) runs() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.calls) }

// A hook that fails leaves its command handled and not acknowledged: the
// redelivery runs that hook, only it, and replies nothing; the one after
// finds the update done.
func TestARedeliveryRunsOnlyTheHooksThatFailed(t *testing.T) {
	failing, fine := &hookLog{fails: 2}, &hookLog{}
	b := apptest.New(t, append(builtin.Catalogue(), failing.factory("failing"), fine.factory("fine")))
	u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
	for i, want := range []error{core.ErrHooksOwed, core.ErrHooksOwed, nil, nil} {
		if err := b.Handle(u); !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("delivery %d: %v, want %v", i+1, err, want)
		}
	}
	if failing.runs() != 3 || fine.runs() != 1 {
		t.Fatalf("the failing hook ran %d times (want 3: until it worked), the fine one %d (want 1)", failing.runs(), fine.runs())
	}
	if got := b.Replies(); len(got) != 1 || got[0] != "pong" {
		t.Fatalf("replies %q, want one pong", got)
	}
}

// A hook failing for good does not hold its update (nor a poller behind
// it) forever: it is given up after the dedup's attempts.
func TestHooksThatKeepFailingAreGivenUp(t *testing.T) {
	failing := &hookLog{fails: 1000}
	b := apptest.New(t, append(builtin.Catalogue(), failing.factory("failing")))
	u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
	var err error
	for range 10 {
		if err = b.Handle(u); err == nil {
			break
		}
	}
	if err != nil || failing.runs() != 5 || !strings.Contains(b.Logs.String(), "command hooks dropped after repeated failures") {
		t.Fatalf("after %d runs of the hook: %v", failing.runs(), err)
	}
}

// tallied is user's count of command in the stats module's store.
func tallied(t *testing.T, b *apptest.Bot, user int64, command string) int64 {
	t.Helper()
	var v struct{ Cmds map[string]int64 }
	if err := b.Store.For(stats.Name).GetJSON(t.Context(), "u:"+strconv.FormatInt(user, 10), &v); err != nil {
		t.Fatal(err)
	}
	return v.Cmds[command]
}

// Simulation seed 10: a command answered while the store went down under
// it was never counted, its stats hook's failure only logged. The count
// now lands once, whether the hook's write was lost or landed unheard.
func TestACommandWhoseCountFailsIsCountedOnceByItsRedelivery(t *testing.T) {
	for _, land := range []bool{false, true} {
		t.Run("landed="+strconv.FormatBool(land), func(t *testing.T) {
			store := storagetest.NewUnheard(memory.New())
			b := apptest.NewOnStore(t, store, telegramtest.New(t), nil, builtin.Catalogue())
			store.Arm(stats.Name, "u:", land)
			u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
			if err := b.Handle(u); !errors.Is(err, core.ErrHooksOwed) {
				t.Fatalf("the command whose count failed: %v", err)
			}
			redeliverTwice(t, b, u)
			if n, replies := tallied(t, b, apptest.User, "ping"), len(b.Replies()); n != 1 || replies != 1 {
				t.Fatalf("/ping counted %d times, replied %d times; want once each", n, replies)
			}
		})
	}
}

// redeliverTwice is Telegram delivering u again, twice, both handled: the
// second finds the update done.
func redeliverTwice(t *testing.T, b *apptest.Bot, u *models.Update) {
	t.Helper()
	for range 2 {
		if err := b.Handle(u); err != nil {
			t.Fatalf("a redelivery: %v", err)
		}
	}
}
