package timer_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// setKept sets key due at with a Keep window.
func setKept(t *testing.T, tm app.Timers, key string, at time.Time, keep time.Duration) app.Timer {
	t.Helper()
	got, err := tm.Set(context.Background(), app.Timer{Key: key, ChatID: -5, At: at, Payload: []byte("hi"), Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sameTimer says whether a Set under a taken key answered with the timer
// that holds it.
func sameTimer(got, want app.Timer) bool {
	return got.ID == want.ID && got.At.Equal(want.At) && string(got.Payload) == string(want.Payload) && got.Key == want.Key
}

// A key stays taken while its timer is pending, while its callback runs,
// and for Keep after it ran: a Set under it is ErrTimerExists with the
// timer that holds it (as a unique job answers), and Cancel's outcomes
// are those of a timer without a Keep (no timer once it ran). Past Keep
// the key is free and the kept record is swept.
func TestAKeyStaysTakenWhilePendingFiringAndKeptOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		ctx := context.Background()
		clk := apptest.NewClock(t0)
		store := p.For(storage.CoreNamespace)
		var e interface{ For(string) app.Timers }
		var during error
		var duringGot app.Timer
		var c calls
		eng := engine(store, clk, func(ctx context.Context, tm app.Timer) error {
			if tm.Key == "k" {
				duringGot, during = e.For("m").Set(ctx, app.Timer{Key: "k", At: t0.Add(time.Hour)})
			}
			return c.on(ctx, tm)
		})
		e = eng
		tm := eng.For("m")
		first := setKept(t, tm, "k", t0.Add(30*time.Second), time.Hour)
		setKept(t, tm, "free", t0.Add(30*time.Second), 0)

		got, err := tm.Set(ctx, app.Timer{Key: "k", At: t0.Add(2 * time.Hour), Payload: []byte("other")})
		if !errors.Is(err, app.ErrTimerExists) || !sameTimer(got, first) {
			t.Fatalf("Set while pending = %+v, %v; want %+v and ErrTimerExists", got, err, first)
		}
		clk.Add(time.Minute)
		tick(t, eng)
		if !errors.Is(during, app.ErrTimerExists) || duringGot.ID != first.ID {
			t.Errorf("Set while firing = %+v, %v; want the timer firing and ErrTimerExists", duringGot, during)
		}
		if n := len(c.list()); n != 2 {
			t.Fatalf("%d callbacks, want 2", n)
		}

		clk.Add(50 * time.Minute) // within Keep
		if got, err := tm.Set(ctx, app.Timer{Key: "k", At: clk.Now()}); !errors.Is(err, app.ErrTimerExists) || !sameTimer(got, first) {
			t.Errorf("Set within Keep = %+v, %v; want %+v and ErrTimerExists", got, err, first)
		}
		if o, err := tm.Cancel(ctx, "k"); err != nil || o != app.NoTimer {
			t.Errorf("Cancel within Keep = %v, %v; want no timer (it fired)", o, err)
		}
		if o, err := tm.Cancel(ctx, "free"); err != nil || o != app.NoTimer {
			t.Errorf("Cancel of a fired timer kept for no time = %v, %v; want no timer", o, err)
		}
		if ts, err := tm.List(ctx, ""); err != nil || len(ts) != 0 {
			t.Errorf("List = %+v, %v; want no pending timer", ts, err)
		}
		tick(t, eng)
		if n := len(c.list()); n != 2 {
			t.Fatalf("a kept timer fired again: %d callbacks", n)
		}

		clk.Add(15 * time.Minute) // past Keep: swept
		tick(t, eng)
		if o, err := tm.Cancel(ctx, "k"); err != nil || o != app.NoTimer {
			t.Errorf("Cancel past Keep = %v, %v; want no timer", o, err)
		}
		keys, err := store.List(ctx, "timer:")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if k != "timer:swept" {
				t.Errorf("%s left after Keep", k)
			}
		}
		again := setKept(t, tm, "k", clk.Now().Add(time.Minute), time.Hour)
		if again.ID == first.ID {
			t.Error("a Set past Keep answered with the old timer")
		}
	})
}

// A Set past Keep whose record the tick has not swept yet takes the key;
// the old record's sweep then leaves the new timer alone.
func TestASetPastKeepBeforeTheSweepTakesTheKey(t *testing.T) {
	clk := apptest.NewClock(t0)
	var c calls
	eng := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	tm := eng.For("m")
	first := setKept(t, tm, "k", t0, time.Minute)
	tick(t, eng)
	clk.Add(2 * time.Minute)
	second := setKept(t, tm, "k", clk.Now().Add(time.Minute), time.Minute)
	if second.ID == first.ID {
		t.Fatal("the old timer answered past its Keep")
	}
	tick(t, eng) // sweeps the first's record
	clk.Add(time.Minute)
	tick(t, eng)
	if got := c.list(); len(got) != 2 || got[1].ID != second.ID {
		t.Fatalf("callbacks %+v, want the first then the second", got)
	}
}

// A kept record is an item like any other: the migrator and a backup
// carry it, and on the other side it still holds its key.
func TestAKeptKeyCarriedByTheMigratorOrABackupStaysTaken(t *testing.T) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	src := memory.New()
	e := engine(src.For(storage.CoreNamespace), clk, (&calls{}).on)
	first := setKept(t, e.For("m"), "k", t0, time.Hour)
	tick(t, e)

	migrated := backendtest.Bolt(t)
	if _, err := migrate.Copy(ctx, src, migrated, migrate.Options{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := backup.WriteFile(ctx, src, path, backup.Options{Source: "the test's store"}); err != nil {
		t.Fatal(err)
	}
	a, err := backup.Open(path, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.Close(ctx) }()
	restored := memory.New()
	if _, err := backup.Restore(ctx, a, restored, backup.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]storage.KVProvider{"migrated": migrated, "restored": restored} {
		t.Run(name, func(t *testing.T) {
			var c calls
			other := engine(p.For(storage.CoreNamespace), clk, c.on)
			got, err := other.For("m").Set(ctx, app.Timer{Key: "k", At: clk.Now()})
			if !errors.Is(err, app.ErrTimerExists) || !sameTimer(got, first) {
				t.Fatalf("Set = %+v, %v; want the kept timer and ErrTimerExists", got, err)
			}
			tick(t, other)
			if len(c.list()) != 0 {
				t.Error("the kept timer fired again")
			}
		})
	}
}

// A chat that becomes a supergroup moves its pending timers; a kept one
// has fired and only holds its key, which stays taken.
func TestAKeptKeyStaysTakenWhenItsChatMoves(t *testing.T) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	var c calls
	eng := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	first := setKept(t, eng.For("m"), "k", t0, time.Hour)
	tick(t, eng)
	if err := eng.ChatChanged(ctx, app.ChatChange{ChatID: -5, MovedTo: -1005}); err != nil {
		t.Fatal(err)
	}
	if got, err := eng.For("m").Set(ctx, app.Timer{Key: "k", ChatID: -1005, At: clk.Now()}); !errors.Is(err, app.ErrTimerExists) || got.ID != first.ID {
		t.Fatalf("Set after the move = %+v, %v; want the kept timer", got, err)
	}
	if err := eng.ChatChanged(ctx, app.ChatChange{ChatID: -1005}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.For("m").Set(ctx, app.Timer{Key: "k", At: clk.Now()}); !errors.Is(err, app.ErrTimerExists) {
		t.Fatalf("Set after the chat went = %v; want ErrTimerExists", err)
	}
}

func TestSetRefusesAKeepTooLong(t *testing.T) {
	clk := apptest.NewClock(t0)
	e := engine(memory.New().For(storage.CoreNamespace), clk, nil)
	_, err := e.For("m").Set(context.Background(), app.Timer{Key: "k", At: t0, Keep: app.MaxTimerKeep + time.Second})
	if !errors.Is(err, app.ErrTimerInvalid) || !strings.Contains(err.Error(), "keep") {
		t.Fatalf("Set = %v, want ErrTimerInvalid naming keep", err)
	}
}

// A cancelled timer with a Keep holds its key for Keep after the Cancel:
// a Set under it answers with the timer, marked cancelled, so an event
// told again after a confirmed Cancel does not set it again. A second
// Cancel finds no timer; past Keep the key is free.
func TestACancelledKeyStaysTakenForItsKeep(t *testing.T) {
	ctx := context.Background()
	clk := apptest.NewClock(t0)
	var c calls
	eng := engine(memory.New().For(storage.CoreNamespace), clk, c.on)
	tm := eng.For("m")
	first := setKept(t, tm, "k", t0.Add(10*time.Minute), time.Hour)
	if o, err := tm.Cancel(ctx, "k"); err != nil || o != app.Cancelled {
		t.Fatalf("Cancel = %v, %v; want cancelled", o, err)
	}
	got, err := tm.Set(ctx, app.Timer{Key: "k", At: t0.Add(10 * time.Minute)})
	if !errors.Is(err, app.ErrTimerExists) || !sameTimer(got, first) || !got.Cancelled {
		t.Fatalf("Set after the Cancel = %+v, %v; want the cancelled timer and ErrTimerExists", got, err)
	}
	if o, err := tm.Cancel(ctx, "k"); err != nil || o != app.CancelledBefore {
		t.Errorf("a second Cancel = %v, %v; want cancelled before", o, err)
	}
	for range 30 {
		clk.Add(time.Minute)
		tick(t, eng)
	}
	if len(c.list()) != 0 {
		t.Fatal("a cancelled timer fired")
	}
	clk.Add(31 * time.Minute)
	tick(t, eng)
	if again := setKept(t, tm, "k", clk.Now(), 0); again.ID == first.ID || again.Cancelled {
		t.Errorf("a Set past Keep = %+v, want a new timer", again)
	}
}
