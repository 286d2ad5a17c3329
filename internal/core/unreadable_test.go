package core_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	crondispatch "github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/modules/coin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// damageCount counts the damaged reads a core reports, by namespace.
type damageCount struct {
	mu sync.Mutex
	n  map[string]float64
}

func (d *damageCount) Add(s metrics.Series, v float64) {
	if s.Name != metrics.DamagedReads {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n[s.Labels[0].Value] += v
}
func (d *damageCount) Observe(metrics.Series, float64) {}
func (d *damageCount) Set(metrics.Series, float64)     {}
func (d *damageCount) get(ns string) float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n[ns]
}

// serverOrMemory runs f on the memory store and on one server backend.
func serverOrMemory(t *testing.T, f func(t *testing.T, p storage.KVProvider)) {
	t.Run("memory", func(t *testing.T) { f(t, memory.New()) })
	t.Run("mongodb", func(t *testing.T) { f(t, backendtest.Mongo(t)) })
}

// flip damages the value at ns/key with one flipped byte.
func flip(t *testing.T, s storage.KVStore, key string) {
	t.Helper()
	v, err := s.Get(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	v[0] ^= 0x20 // '{' becomes '['
	if err := s.Put(t.Context(), key, v); err != nil {
		t.Fatal(err)
	}
}

// errorReports counts the ERROR lines that name the damaged item.
func errorReports(logs, ns, key string) int {
	n := 0
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "cannot be read") && strings.Contains(line, `"level":"ERROR"`) &&
			strings.Contains(line, `"namespace":"`+ns+`"`) && strings.Contains(line, `"key":"`+key+`"`) {
			n++
		}
	}
	return n
}

// A portfolio with a flipped byte: its user is told it cannot be read (not
// "Sorry"), on every command, without a redelivery; the log names the item
// once with the botctl command, the metric counts each read, /healthz is
// degraded until it is repaired, and other users are served throughout.
func TestADamagedPortfolioIsNamedOnceAndItsUserToldWhileOthersAreServed(t *testing.T) {
	serverOrMemory(t, func(t *testing.T, p storage.KVProvider) {
		count := &damageCount{n: map[string]float64{}}
		b := apptest.NewOnStore(t, p, telegramtest.New(t), nil, builtin.Catalogue(), core.WithMetrics(metrics.New(count)))
		b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
		b.MustSay(apptest.Admin, apptest.Admin, "/coin_topup 500")
		key := "user:" + strconv.FormatInt(apptest.User, 10)
		flip(t, b.Store.For(coin.Name), key)

		for i, cmd := range []string{"/coin_stats", "/coin_topup 5", "/coin_stats"} {
			if err := b.Handle(telegramtest.Text(apptest.PrivateChat, apptest.User, cmd)); err != nil {
				t.Fatalf("%s over a damaged portfolio: %v; want it answered and acknowledged", cmd, err)
			}
			if got := b.Last(); !strings.Contains(got, "cannot be read") || !strings.Contains(got, "operator") || strings.Contains(got, "Sorry") {
				t.Errorf("reply %d to %s = %q, want that it cannot be read and the operator was told", i+1, cmd, got)
			}
		}
		if n := errorReports(b.Logs.String(), coin.Name, key); n != 1 {
			t.Errorf("%d ERROR lines name the damaged item, want 1:\n%s", n, b.Logs.String())
		}
		if !strings.Contains(b.Logs.String(), "botctl store show coin "+key) {
			t.Errorf("the log does not name the botctl command:\n%s", b.Logs.String())
		}
		if got := count.get(coin.Name); got != 3 {
			t.Errorf("damaged reads counted = %v, want 3", got)
		}
		if err := b.App.Health(t.Context()); !core.IsDegraded(err) {
			t.Errorf("Health = %v, want degraded", err)
		}

		if err := b.Handle(telegramtest.Text(apptest.Admin, apptest.Admin, "/coin_stats")); err != nil {
			t.Fatal(err)
		}
		if got := b.Last(); strings.Contains(got, "cannot be read") || !strings.Contains(got, "500") {
			t.Errorf("another user's /coin_stats = %q, want their portfolio", got)
		}

		// Repaired (here deleted): healthy again, and the user served.
		if err := b.Store.For(coin.Name).Delete(t.Context(), key); err != nil {
			t.Fatal(err)
		}
		if err := b.App.Health(t.Context()); err != nil {
			t.Errorf("Health after the repair = %v, want ok", err)
		}
		b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
		if got := b.Last(); strings.Contains(got, "cannot be read") {
			t.Errorf("after the repair /coin_topup = %q, want it served", got)
		}
	})
}

// A daily job that meets a damaged portfolio skips it and does the rest:
// the run counts as run, not failed (no retry can read it), every other
// portfolio gets its day, and the item is named once.
func TestADailyJobSkipsADamagedItemAndDoesTheRest(t *testing.T) {
	serverOrMemory(t, func(t *testing.T, p storage.KVProvider) {
		clk := apptest.NewClock(time.Date(2026, 12, 6, 17, 0, 5, 0, time.UTC))
		b := apptest.NewOnStore(t, p, telegramtest.New(t), nil, builtin.Catalogue(), core.WithClock(clk.Now))
		b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
		b.MustSay(apptest.Admin, apptest.Admin, "/coin_topup 500")
		s := b.Store.For(coin.Name)
		key := "user:" + strconv.FormatInt(apptest.User, 10)
		flip(t, s, key)

		out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_values", time.Date(2026, 12, 6, 17, 0, 0, 0, time.UTC))
		if err != nil || out != crondispatch.Ran {
			t.Fatalf("Dispatch = %v, %v; want it run", out, err)
		}
		if _, err := s.Get(t.Context(), "value:"+strconv.FormatInt(apptest.Admin, 10)); err != nil {
			t.Errorf("the other portfolio's day: %v, want it recorded", err)
		}
		if n := errorReports(b.Logs.String(), coin.Name, key); n != 1 {
			t.Errorf("%d ERROR lines name the damaged item, want 1:\n%s", n, b.Logs.String())
		}
	})
}

// A button whose handler meets a damaged item gets its one answer, saying
// the data cannot be read, and the item is reported as a command's is.
func TestAPressOnADamagedItemIsAnsweredThatItCannotBeRead(t *testing.T) {
	reader := app.Factory{Name: "reader", New: func(d app.Deps) (*app.Module, error) {
		return &app.Module{Name: "reader", Callbacks: []app.Callback{{Prefix: "rd:", Handler: func(ctx context.Context, _ *app.CallbackRequest) error {
			var v map[string]int
			return d.Store.GetJSON(ctx, "state", &v)
		}}}}, nil
	}}
	count := &damageCount{n: map[string]float64{}}
	b := apptest.New(t, []app.Factory{reader}, core.WithMetrics(metrics.New(count)))
	if err := b.Store.For("reader").Put(t.Context(), "state", []byte(`["a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := b.Handle(telegramtest.Press(apptest.Group, apptest.User, 5, "rd:x")); err != nil {
		t.Fatalf("the press: %v; want it answered and acknowledged", err)
	}
	if toasts := b.Toasts(); len(toasts) != 1 || !strings.Contains(toasts[0], "cannot be read") {
		t.Errorf("answers %q, want one saying the data cannot be read", toasts)
	}
	if n := errorReports(b.Logs.String(), "reader", "state"); n != 1 || count.get("reader") != 1 {
		t.Errorf("%d ERROR lines, %v counted; want the item named once and counted", n, count.get("reader"))
	}
}

// A timer's record with a flipped byte is a damaged item like any other:
// the tick names it once by its key and fingerprint, never by the bytes
// (a reminder's text), counts it, leaves /healthz degraded, and fires the
// other timers due with it; the tick counts as run.
func TestADamagedTimerIsNamedWithoutItsContentAndTheOthersFire(t *testing.T) {
	serverOrMemory(t, func(t *testing.T, p storage.KVProvider) {
		clk := apptest.NewClock(time.Date(2026, 12, 6, 9, 0, 5, 0, time.UTC))
		count := &damageCount{n: map[string]float64{}}
		b := apptest.NewOnStore(t, p, telegramtest.New(t), nil, builtin.Catalogue(), core.WithClock(clk.Now), core.WithMetrics(metrics.New(count)))
		cs := b.Store.For(storage.CoreNamespace)
		b.MustSay(apptest.PrivateChat, apptest.User, "/remind 2m the secret plan")
		damaged, err := cs.List(t.Context(), "timer:at:")
		if err != nil || len(damaged) != 1 {
			t.Fatalf("timer records %v, %v; want one", damaged, err)
		}
		b.MustSay(apptest.Admin, apptest.Admin, "/remind 2m stand-up")
		flip(t, cs, damaged[0])

		clk.Add(3 * time.Minute)
		out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "timers", clk.Now().Truncate(time.Minute))
		if err != nil || out != crondispatch.Ran {
			t.Fatalf("the tick: %v, %v; want it run", out, err)
		}
		if got := b.Last(); !strings.Contains(got, "stand-up") {
			t.Errorf("last message %q, want the other reminder fired", got)
		}
		logs := b.Logs.String()
		if n := errorReports(logs, storage.CoreNamespace, damaged[0]); n != 1 {
			t.Errorf("%d ERROR lines name the damaged timer, want 1:\n%s", n, logs)
		}
		if strings.Contains(logs, "secret plan") {
			t.Errorf("the log shows the damaged record's content:\n%s", logs)
		}
		if count.get(storage.CoreNamespace) == 0 {
			t.Error("the damaged timer was not counted")
		}
		if err := b.App.Health(t.Context()); !core.IsDegraded(err) {
			t.Errorf("Health = %v, want degraded", err)
		}
	})
}
