package trading

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// engines are the replicas' timers engines, by their alerts.
var engines sync.Map

// withTimers gives a replica's alerts a timers engine of their own over s,
// as each process has.
func withTimers(a *Alerts, s storage.KVStore, clk *clock) *Alerts {
	e := timer.New(s, clk.Now, timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) {
		return a.OnTimer, true
	}))
	a.Timers = e.For("coin")
	engines.Store(a, e)
	return a
}

// tick is a tick of a's timers engine: the error says how many sends
// failed (their timers are tried again at the next tick).
func (a *Alerts) tick(ctx context.Context) error {
	e, _ := engines.Load(a)
	st, err := e.(*timer.Engine).Tick(ctx)
	if err == nil && st.Waits > 0 {
		err = fmt.Errorf("%d of %d alert sends failed", st.Waits, st.Due)
	}
	return err
}

// checkThenTick is a check, then the next tick of the timers.
func (a *Alerts) checkThenTick(ctx context.Context) error {
	return errors.Join(a.Check(ctx), a.tick(ctx))
}

// The check that sees a crossing sends nothing itself: it sets the alert's
// timer, keyed by the alert, with the quote; the timer's callback ends the
// alert and sends it. A retry of that callback (its send failed, or its
// runner died) still sends; another timer of the same alert sends nothing.
// The market keeps no mark or claim of its own.
func TestAnAlertFiresThroughATimerSetAtTheCrossing(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
	id := arm(t, a, 7, "BTC", true, "120000", -100)
	if err := a.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if len(bot.texts()) != 0 || pending(t, a, 7) != 1 {
		t.Fatalf("the check sent %q and left %d alerts; want nothing sent, the alert pending its timer", bot.texts(), pending(t, a, 7))
	}
	timers, err := a.Timers.List(ctx, "alert:")
	if err != nil || len(timers) != 1 || timers[0].Key != fmt.Sprintf("alert:7:%d", id) {
		t.Fatalf("timers %+v, %v; want the alert's", timers, err)
	}
	if err := a.Check(ctx); err != nil { // the same minute again
		t.Fatal(err)
	}
	if err := a.tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := bot.texts(); len(got) != 1 || pending(t, a, 7) != 0 {
		t.Fatalf("after the tick: sent %q, %d alerts pending; want it sent once and ended", got, pending(t, a, 7))
	}
	retry := timers[0]
	retry.Attempt = 2
	if err := a.OnTimer(ctx, retry); err != nil || len(bot.texts()) != 2 {
		t.Fatalf("a retry of the callback: %v, sent %d; want it sent again", err, len(bot.texts()))
	}
	other := timers[0]
	other.ID++
	if err := a.OnTimer(ctx, other); err != nil || len(bot.texts()) != 2 {
		t.Fatalf("another timer of the ended alert: %v, sent %d; want nothing", err, len(bot.texts()))
	}
	if keys, err := s.List(ctx, "fire:"); err != nil || len(keys) != 0 {
		t.Fatalf("the market's own claims: %v, %v; want none", keys, err)
	}
}

// A Cancel between the crossing and the timer's callback is confirmed, and
// the callback sends nothing.
func TestACancelBeforeTheAlertsTimerFiresKeepsItUnsent(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
	id := arm(t, a, 7, "BTC", true, "120000", -100)
	if err := a.Check(ctx); err != nil {
		t.Fatal(err)
	}
	toast, err := a.cancel(ctx, english, 7, id)
	if err != nil || !strings.HasPrefix(toast, "Cancelled: ") {
		t.Fatalf("cancel: %q, %v", toast, err)
	}
	if err := a.tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := bot.texts(); len(got) != 0 {
		t.Fatalf("sent %q after a confirmed cancel", got)
	}
}

// On the deploy day an alert the build before marked fired and did not
// send yet is sent at the quote it fired at; one that build sent (its send
// claim says done) is only ended, and its claim dropped.
func TestAnAlertTheOldBuildMarkedFiredIsSentOnce(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "110000"}), bot, 0) // crossed no more
	unsent := arm(t, a, 7, "BTC", true, "120000", -100)
	sent := arm(t, a, 7, "BTC", true, "121000", -100)
	at := Quote{Price: d("125000"), Source: "Fake", At: alertNow.Add(-time.Minute)}
	err := storage.UpdateJSON(ctx, s, bookKey(7), func(b *alertBook, _ bool) (bool, error) {
		for i := range b.Alerts {
			b.Alerts[i].OldFired = &at
		}
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, oldFireKey(7, sent), []byte(`{"state":"done","at":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	got := bot.texts()
	if len(got) != 1 || !strings.Contains(got[0], "$120,000.00: $125,000.00") || pending(t, a, 7) != 0 {
		t.Fatalf("sent %q, %d pending; want alert %d alone sent, at its old quote, and both ended", got, pending(t, a, 7), unsent)
	}
	if keys, err := s.List(ctx, "fire:"); err != nil || len(keys) != 0 {
		t.Fatalf("the old claims left: %v, %v", keys, err)
	}
}
