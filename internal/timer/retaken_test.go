package timer_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// A run that may repeat a callback's work is logged with the timer's key
// (timer.Retaken): what lets a reader excuse a repeated send, and only it.
func TestOnlyATakeoverFromARunWithoutAnEndIsLoggedAsRetaken(t *testing.T) {
	tests := []struct {
		name string
		dies bool // the first run loses the store after its callback
		want int  // Retaken lines
	}{
		{"a run that recorded its end: no takeover logged", false, 0},
		{"a run that died before its end: its takeover logged once", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := apptest.NewClock(t0)
			sw := storagetest.NewSwitch(memory.New())
			store := sw.For(storage.CoreNamespace)
			first := func(context.Context, app.Timer) error {
				if tt.dies {
					sw.SetDown(true)
					return errors.New("lost")
				}
				return nil
			}
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			handler := func(f func(context.Context, app.Timer) error) timer.Option {
				return timer.WithHandler(func(string) (func(context.Context, app.Timer) error, bool) { return f, true })
			}
			a := timer.New(store, clk.Now, handler(first), timer.WithLogger(log))
			set(t, a, "u1:k", t0)
			clk.Add(time.Minute)
			_, _ = a.Tick(context.Background())
			sw.SetDown(false)
			var c calls
			b := timer.New(store, clk.Now, handler(c.on), timer.WithLogger(log))
			clk.Add(app.TimerStale + time.Minute)
			tick(t, b)
			if got := strings.Count(logs.String(), timer.Retaken); got != tt.want {
				t.Fatalf("%d %q lines, want %d:\n%s", got, timer.Retaken, tt.want, logs.String())
			}
			if tt.want > 0 && !strings.Contains(logs.String(), "key=u1:k") {
				t.Errorf("the line names no key:\n%s", logs.String())
			}
		})
	}
}
