package core_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// blocking is a module whose /work waits for release (or its budget) before
// it replies: a run in flight that the test controls.
func blocking(release <-chan struct{}, started chan<- struct{}) app.Factory {
	return app.Factory{Name: "slow", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "slow", Commands: []app.Command{{
			Name: "work", Description: "Work until released",
			Handler: func(ctx context.Context, r *app.Request) error {
				started <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
					return ctx.Err()
				}
				_, err := r.Reply(ctx, "worked")
				return err
			},
		}}}, nil
	}}
}

func TestAnUpdateInFlightElsewhereIsNotAcknowledgedUntilItIsDone(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 2)
	first := apptest.New(t, []app.Factory{blocking(release, started)})
	// The other runtime (or instance) over the same store and Bot API.
	second, err := core.New(first.Store, first.Client, core.WithModules([]app.Factory{blocking(release, started)}))
	if err != nil {
		t.Fatal(err)
	}
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/work")
	u.ID = 7001
	done := make(chan error, 1)
	go func() { done <- first.App.HandleUpdate(context.Background(), u) }()
	<-started

	if err := second.HandleUpdate(t.Context(), u); !errors.Is(err, app.ErrInFlight) {
		t.Fatalf("a redelivery while the first run goes on = %v, want app.ErrInFlight (not acknowledged)", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := second.HandleUpdate(t.Context(), u); err != nil {
		t.Fatalf("a redelivery after the run = %v, want nil (a duplicate, acknowledged)", err)
	}
	if got := first.Replies(); len(got) != 1 {
		t.Fatalf("replies %q, want the one run's", got)
	}
}

func TestAClaimOfARunThatDiedIsTakenOverOnceStale(t *testing.T) {
	clk := apptest.NewClock(apptest.T0)
	started := make(chan struct{}, 2)
	never := make(chan struct{}) // the first run never ends: its process died
	dead := apptest.New(t, []app.Factory{blocking(never, started)}, core.WithClock(clk.Now), core.WithUpdateBudget(time.Hour))
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/work")
	u.ID = 7002
	ctx, kill := context.WithCancel(context.WithoutCancel(t.Context()))
	go func() { _ = dead.App.HandleUpdate(ctx, u) }()
	<-started
	t.Cleanup(kill)

	released := make(chan struct{})
	close(released)
	restarted, err := core.New(dead.Store, dead.Client, core.WithModules([]app.Factory{blocking(released, started)}), core.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	if err := restarted.HandleUpdate(t.Context(), u); !errors.Is(err, app.ErrInFlight) {
		t.Fatalf("before the stale mark = %v, want app.ErrInFlight", err)
	}
	clk.Add(3 * time.Minute) // past the stale mark
	if err := restarted.HandleUpdate(t.Context(), u); err != nil {
		t.Fatalf("after the stale mark = %v, want the update taken over and handled", err)
	}
	if got := dead.Replies(); len(got) != 1 || got[0] != "worked" {
		t.Fatalf("replies %q, want one", got)
	}
}

func TestAnUpdateThatOverrunsItsBudgetFailsAndIsHandledOnRedelivery(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 2)
	b := apptest.New(t, []app.Factory{blocking(release, started)}, core.WithUpdateBudget(300*time.Millisecond)) // room for the redelivery under -race on a loaded machine
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/work")
	u.ID = 7003
	if err := b.App.HandleUpdate(t.Context(), u); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an overrun = %v, want a failure (the webhook answers 5xx, Telegram redelivers)", err)
	}
	<-started
	close(release)
	if err := b.App.HandleUpdate(t.Context(), u); err != nil {
		t.Fatalf("the redelivery = %v, want it handled at once (the failed run was recorded)", err)
	}
	<-started
	if err := b.App.HandleUpdate(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if got := b.Replies(); len(got) != 1 {
		t.Fatalf("replies %q, want exactly one", got)
	}
}

// A run that outlives the stale mark (its process was only slow) must not
// overwrite the claim of the run that took over: a third delivery would
// start the update a third time.
func TestALateRunLeavesTheClaimOfTheRunThatTookOver(t *testing.T) {
	clk := apptest.NewClock(apptest.T0)
	started := make(chan struct{}, 3)
	slowDone, takeoverRelease := make(chan struct{}), make(chan struct{})
	slow := apptest.New(t, []app.Factory{blocking(slowDone, started)}, core.WithClock(clk.Now), core.WithUpdateBudget(time.Hour))
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/work")
	u.ID = 7004
	slowErr := make(chan error, 1)
	go func() { slowErr <- slow.App.HandleUpdate(context.Background(), u) }()
	<-started

	clk.Add(3 * time.Minute) // the slow run is past the stale mark: taken over
	other, err := core.New(slow.Store, slow.Client, core.WithModules([]app.Factory{blocking(takeoverRelease, started)}), core.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	otherErr := make(chan error, 1)
	go func() { otherErr <- other.HandleUpdate(context.Background(), u) }()
	<-started

	close(slowDone) // the slow run ends while the takeover runs
	if err := <-slowErr; err != nil {
		t.Fatal(err)
	}
	// A third delivery now: the takeover still runs, so it is in flight.
	if err := other.HandleUpdate(t.Context(), u); !errors.Is(err, app.ErrInFlight) {
		t.Fatalf("a delivery while the takeover runs = %v, want app.ErrInFlight", err)
	}
	close(takeoverRelease)
	if err := <-otherErr; err != nil {
		t.Fatal(err)
	}
}

// Deliveries of an update whose first run failed race to run it again
// from two processes: on every backend the bot accepts exactly one runs it
// (the re-claim is a value-matched swap, which each applies atomically).
func TestRacingRedeliveriesOfAFailedUpdateRunItOnceOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit)
		}
		srv := telegramtest.New(t)
		first := apptest.NewOnStore(t, p, srv, nil, []app.Factory{misc.Factory})
		second, err := core.New(p, first.Client, core.WithModules([]app.Factory{misc.Factory}))
		if err != nil {
			t.Fatal(err)
		}
		u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/ping")
		u.ID = 7005
		srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
		if err := first.App.HandleUpdate(t.Context(), u); err == nil {
			t.Fatal("the first run should fail (the Bot API answered 500)")
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 8 {
			h := first.App.HandleUpdate
			if i%2 == 1 {
				h = second.HandleUpdate
			}
			wg.Go(func() {
				<-start
				if err := h(t.Context(), u); err != nil && !errors.Is(err, app.ErrInFlight) {
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		// The refused sendMessage, then one pong.
		if got := first.Replies(); len(got) != 2 || got[1] != "pong" {
			t.Fatalf("sendMessage calls %q, want the refused one and one pong", got)
		}
	})
}

// A process that died mid-run leaves its claim "running". When the runtime
// knows that process is gone (the poller holds the lease it held), the
// claim is taken over at once; otherwise the run may be alive, and only
// the stale mark frees it.
func TestARunWhoseOwnerIsKnownGoneIsTakenOverAtOnce(t *testing.T) {
	tests := []struct {
		name   string
		runner *core.Runner // of the process that redelivers; nil: none (a webhook)
		want   error
	}{
		{"its owner is gone: taken over", &core.Runner{ID: "host#2", Gone: func(_ context.Context, owner string) bool { return owner == "host#1" }}, nil},
		{"its owner may be alive: in flight", &core.Runner{ID: "host#2", Gone: func(context.Context, string) bool { return false }}, app.ErrInFlight},
		{"its own run, whose outcome never got recorded: taken over", &core.Runner{ID: "host#1", Gone: func(context.Context, string) bool { return false }}, nil},
		{"without a runner: in flight until stale", nil, app.ErrInFlight},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			started := make(chan struct{}, 2)
			never := make(chan struct{}) // the first run never ends: its process died
			dead := apptest.New(t, []app.Factory{blocking(never, started)}, core.WithUpdateBudget(time.Hour))
			u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/work")
			u.ID = int64(7100 + i)
			ctx, kill := context.WithCancel(core.RunAs(context.WithoutCancel(t.Context()), core.Runner{ID: "host#1"}))
			t.Cleanup(kill)
			go func() { _ = dead.App.HandleUpdate(ctx, u) }()
			<-started

			released := make(chan struct{})
			close(released)
			restarted, err := core.New(dead.Store, dead.Client, core.WithModules([]app.Factory{blocking(released, started)}))
			if err != nil {
				t.Fatal(err)
			}
			rctx := t.Context()
			if tt.runner != nil {
				rctx = core.RunAs(rctx, *tt.runner)
			}
			if err := restarted.HandleUpdate(rctx, u); !errors.Is(err, tt.want) {
				t.Fatalf("the redelivery = %v, want %v", err, tt.want)
			}
			if tt.want == nil {
				if got := dead.Replies(); len(got) != 1 || got[0] != "worked" {
					t.Fatalf("replies %q, want the taken-over run's", got)
				}
			}
		})
	}
}
