package lease

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// Two live processes under one name (two containers given one hostname),
// on every backend:
// the newer takes the lease at once, as a restart does; the older, at its
// next renewal, finds another incarnation of its name holding it, logs one
// ERROR naming the clash and stands down, and never takes it back while
// the newer one renews it.
func TestTheOlderOfTwoLiveProcessesWithOneNameStandsDownWithAnError(t *testing.T) {
	backendtest.Each(t, olderStandsDown)
}

func olderStandsDown(t *testing.T, p storage.KVProvider) {
	store := p.For("core")
	clk := &clock{t: t0}
	logs := &testenv.Buffer{}
	renew, renewing := make(chan struct{}), make(chan struct{}, 1)
	older := New(store, "poller", "host", 30*time.Second, WithClock(clk.now), WithBoot("older"),
		WithWait(parked(renew, renewing)), WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cause, standingBy := make(chan error, 1), make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = older.Hold(ctx, func(held context.Context) {
			<-held.Done()
			cause <- context.Cause(held)
		}, func() {
			select {
			case standingBy <- struct{}{}:
			default:
			}
		})
	}()
	<-renewing // the older holds the lease and waits to renew it

	newer := New(store, "poller", "host", 30*time.Second, WithClock(clk.now), WithBoot("newer"))
	if won, err := newer.try(t.Context()); !won || err != nil {
		t.Fatalf("the newer process: %v %v; want the lease at once", won, err)
	}
	clk.add(10 * time.Second)
	renew <- struct{}{} // the older's renewal finds the newer's record
	var err error
	select {
	case err = <-cause:
	case <-testenv.Context(t).Done():
		t.Fatal("the older process kept holding")
	}
	if !errors.Is(err, ErrClash) || !errors.Is(err, ErrLost) {
		t.Fatalf("the older stopped with %v, want ErrClash (an ErrLost)", err)
	}
	renew <- struct{}{} // it tries again and finds the newer's live lease
	select {
	case <-standingBy:
	case <-testenv.Context(t).Done():
		t.Fatal("the older process did not stand by")
	}
	if holds, err := newer.Holds(t.Context()); !holds || err != nil {
		t.Fatalf("the newer's lease: %v %v; the older took it back", holds, err)
	}
	cancel()
	<-done
	var clash []string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, `"level":"ERROR"`) {
			clash = append(clash, line)
		}
	}
	if len(clash) != 1 || !strings.Contains(clash[0], "host#older") || !strings.Contains(clash[0], "host#newer") {
		t.Fatalf("want one ERROR naming both processes, got:\n%s", logs.String())
	}
}

// A store that fails is a store error, with its cause, not another
// holder: the holder that cannot renew says so, and stops holding.
func TestAHolderThatCannotRenewSaysTheStoreFailed(t *testing.T) {
	sw := storagetest.NewSwitch(memory.New())
	clk := &clock{t: t0}
	tick := func(ctx context.Context, d time.Duration) error { clk.add(d); return ctx.Err() }
	logs := &testenv.Buffer{}
	a := New(sw.For("core"), "poller", "a", 30*time.Second, WithClock(clk.now), WithWait(tick),
		WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var cause error
	_ = a.Hold(ctx, func(held context.Context) {
		sw.SetDown(true)
		<-held.Done()
		cause = context.Cause(held)
		cancel()
	}, nil)
	if !errors.Is(cause, ErrLost) || errors.Is(cause, ErrTaken) || !strings.Contains(cause.Error(), storagetest.ErrDown.Error()) {
		t.Fatalf("the holder stopped with %q, want a lost lease naming the store's error, not another holder", cause)
	}
	if out := logs.String(); strings.Contains(out, "another process") || !strings.Contains(out, storagetest.ErrDown.Error()) {
		t.Fatalf("the log must name the store's error, and no other holder:\n%s", out)
	}
}
