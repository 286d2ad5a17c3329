package core_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// outage is a module whose command replies and whose button acts, each
// then taking the store down when down says so (the simulation's outage
// in the middle of an update: what follows, the record included, fails).
// Its button is unfinished (app.Unfinished) at its first run.
func outage(sw **storagetest.Switch, down bool, presses *atomic.Int32) app.Factory {
	fall := func() {
		if down {
			(*sw).SetDown(true)
		}
	}
	return app.Factory{Name: "outage", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{
			Name: "outage",
			Commands: []app.Command{{Name: "down", Description: "Reply, then lose the store", Handler: func(ctx context.Context, r *app.Request) error {
				err := r.Reply(ctx, "replied")
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

// Simulation seed 10's outage: a command answered while the store went
// down under it, whose hook and record then both failed. The update is
// not acknowledged, and its redelivery to the same process records the
// end it missed first: the hook runs, the reply is not sent again.
func TestAnEndTheStoreMissedIsRecordedByTheRedeliveryNotRunAgain(t *testing.T) {
	var sw *storagetest.Switch
	b := apptest.New(t, append(builtin.Catalogue(), outage(&sw, true, new(atomic.Int32))))
	sw = b.Store
	u := telegramtest.Text(apptest.Group, apptest.User, "/down")
	if err := b.Handle(u); !errors.Is(err, core.ErrHooksOwed) {
		t.Fatalf("a command whose hook and record failed: %v", err)
	}
	sw.SetDown(false)
	redeliverTwice(t, b, u)
	if n, replies := tallied(t, b, apptest.User, "down"), len(b.Replies()); n != 1 || replies != 1 {
		t.Fatalf("/down counted %d times, replied %d times; want once each", n, replies)
	}
}

// A press that acted but left work owed (app.Unfinished) is answered once,
// and its update runs again until the work is done; with its record
// missed (an outage) too.
func TestAnUnfinishedPressRunsAgainAndIsAnsweredOnce(t *testing.T) {
	for _, down := range []bool{false, true} {
		t.Run("outage="+strconv.FormatBool(down), func(t *testing.T) {
			var sw *storagetest.Switch
			var presses atomic.Int32
			b := apptest.New(t, []app.Factory{outage(&sw, down, &presses)})
			sw = b.Store
			u := telegramtest.Press(apptest.Group, apptest.User, 5, "out:x")
			if err := b.Handle(u); !errors.Is(err, app.ErrUnfinished) {
				t.Fatalf("the unfinished press: %v", err)
			}
			sw.SetDown(false)
			redeliverTwice(t, b, u)
			if toasts := b.Toasts(); presses.Load() != 2 || len(toasts) != 1 || toasts[0] != "" {
				t.Fatalf("the press ran %d times (want 2), answered %q (want once, silently)", presses.Load(), toasts)
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
				return r.Reply(ctx, "ran again")
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
