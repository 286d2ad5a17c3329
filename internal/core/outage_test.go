package core_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/core"

	"github.com/miti99bot/miti99bot/internal/storage/memory"

	"github.com/miti99bot/miti99bot/internal/modules/stats"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// outage is a module whose command replies and whose button acts, each
// then taking the store down when down says so (the simulation's outage
// in the middle of an update: what follows, the record included, fails).
// The store falls at each one's first run only; the button is unfinished
// (app.Unfinished) at its first run.
func outage(sw **storagetest.Switch, down bool, presses *atomic.Int32) app.Factory {
	var fell atomic.Bool
	fall := func() {
		if down && !fell.Swap(true) {
			(*sw).SetDown(true)
		}
	}
	return app.Factory{Name: "outage", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{
			Name: "outage",
			Commands: []app.Command{{Name: "down", Description: "Reply, then lose the store", Handler: func(ctx context.Context, r *app.Request) error {
				_, err := r.Reply(ctx, "replied")
				fall()
				return err
			}}},
			Callbacks: []app.Callback{{Prefix: "out:", Handler: func(context.Context, *app.CallbackRequest) error {
				if presses.Add(1) > 1 {
					return nil
				}
				fall()
				return app.Unfinished(errors.New("the count's write failed"))
			}}},
		}, nil
	}}
}

// A command answered while the store went down under it, whose count and
// record then failed, is not acknowledged: its redelivery runs it again and
// counts it. A count is at least once, never lost to an outage; the reply
// may go twice (docs/delivery.md).
func TestACommandWhoseRecordFailedRunsAgainAndIsCounted(t *testing.T) {
	var sw *storagetest.Switch
	b := apptest.New(t, append(builtin.Catalogue(), outage(&sw, true, new(atomic.Int32))))
	sw = b.Store
	u := telegramtest.Text(apptest.Group, apptest.User, "/down")
	u.ID = 36
	handle := asPoller(t, b)
	if err := handle(u); err == nil {
		t.Fatal("a command whose count and record failed was acknowledged")
	}
	sw.SetDown(false)
	redeliverTwice(t, handle, u)
	if n, replies := tallied(t, b, apptest.User, "down"), len(b.Replies()); n != 1 || replies > 2 {
		t.Fatalf("/down counted %d times, replied %d times; want counted once, replied at most twice", n, replies)
	}
}

// A press that acted but left work owed (app.Unfinished) is answered once,
// and its update runs again until the work is done; with its record
// missed (an outage) too, when the poller's redelivery takes its own claim
// over.
func TestAnUnfinishedPressRunsAgainAndIsAnsweredOnce(t *testing.T) {
	for _, down := range []bool{false, true} {
		t.Run("outage="+strconv.FormatBool(down), func(t *testing.T) {
			var sw *storagetest.Switch
			var presses atomic.Int32
			b := apptest.New(t, []app.Factory{outage(&sw, down, &presses)})
			sw = b.Store
			u := telegramtest.Press(apptest.Group, apptest.User, 5, "out:x")
			u.ID = 38
			handle := asPoller(t, b)
			if err := handle(u); !errors.Is(err, app.ErrUnfinished) {
				t.Fatalf("the unfinished press: %v", err)
			}
			sw.SetDown(false)
			redeliverTwice(t, handle, u)
			// Its record lost to the outage, the run again cannot know the
			// press was answered: it answers again, silently, and Telegram
			// shows the first (docs/delivery.md).
			answers := map[bool]int{false: 1, true: 2}[down]
			if toasts := b.Toasts(); presses.Load() != 2 || len(toasts) != answers || slices.ContainsFunc(toasts, func(s string) bool { return s != "" }) {
				t.Fatalf("the press ran %d times (want 2), answered %q (want %d silent answers)", presses.Load(), toasts, answers)
			}
		})
	}
}

// A run whose record finds its slot gone (deleted under it: a wipe, a
// restore) keeps no end to record: the redelivery runs the update as new,
// and does not fail, forever, recording an end it cannot write.
func TestARedeliveryIsNotHeldByAnEndWhoseSlotVanished(t *testing.T) {
	var b *apptest.Bot
	var runs atomic.Int32
	wipe := app.Factory{Name: "wipe", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "wipe", Commands: []app.Command{{Name: "wipe", Description: "Lose the update's record, fail", Handler: func(ctx context.Context, r *app.Request) error {
			if runs.Add(1) > 1 {
				_, err := r.Reply(ctx, "ran again")
				return err
			}
			core := b.Store.For(storage.CoreNamespace)
			keys, err := core.List(ctx, "update:")
			if err != nil {
				return err
			}
			for _, k := range keys {
				if err := core.Delete(ctx, k); err != nil {
					return err
				}
			}
			return errors.New("failed, its record gone")
		}}}}, nil
	}}
	b = apptest.New(t, []app.Factory{wipe})
	u := telegramtest.Text(apptest.Group, apptest.User, "/wipe")
	if err := b.Handle(u); err == nil {
		t.Fatal("the failed run: no error")
	}
	if err := b.Handle(u); err != nil {
		t.Fatalf("the redelivery: %v; want it run as new", err)
	}
	if runs.Load() != 2 || b.Last() != "ran again" {
		t.Fatalf("ran %d times, last reply %q", runs.Load(), b.Last())
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

// A count whose write fails once is made again by the hook's next try, and
// counted once, whether that write was lost or landed unheard; the command
// is handled and acknowledged, its reply sent once.
func TestACountWhoseWriteFailsOnceIsCountedOnce(t *testing.T) {
	for _, land := range []bool{false, true} {
		t.Run("landed="+strconv.FormatBool(land), func(t *testing.T) {
			store := storagetest.NewUnheard(memory.New())
			b := apptest.NewOnStore(t, store, telegramtest.New(t), nil, builtin.Catalogue())
			store.Arm(stats.Name, "u:", land)
			u := telegramtest.Text(apptest.Group, apptest.User, "/ping")
			if err := b.Handle(u); err != nil {
				t.Fatalf("the command whose count failed once: %v", err)
			}
			redeliverTwice(t, b.Handle, u)
			if n, replies := tallied(t, b, apptest.User, "ping"), len(b.Replies()); n != 1 || replies != 1 {
				t.Fatalf("/ping counted %d times, replied %d times; want once each", n, replies)
			}
		})
	}
}

// asPoller handles an update as the poller does, as a Runner: a claim of
// its own still running (a run whose record failed) is taken over at once.
func asPoller(t *testing.T, b *apptest.Bot) func(*models.Update) error {
	return func(u *models.Update) error {
		return b.App.HandleUpdate(core.RunAs(t.Context(), core.Runner{ID: "poller#1"}), u)
	}
}

// redeliverTwice is Telegram delivering u again, twice, both handled: the
// second finds the update done.
func redeliverTwice(t *testing.T, handle func(*models.Update) error, u *models.Update) {
	t.Helper()
	for range 2 {
		if err := handle(u); err != nil {
			t.Fatalf("a redelivery: %v", err)
		}
	}
}
