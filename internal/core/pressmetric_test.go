package core_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// outcomes counts the updates' outcomes a core reports.
type outcomes struct {
	mu sync.Mutex
	n  map[string]float64
}

func (o *outcomes) Add(s metrics.Series, v float64) {
	if s.Name != metrics.Updates {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, l := range s.LabelList() {
		if l.Name == "outcome" {
			o.n[l.Value] += v
		}
	}
}
func (o *outcomes) Observe(metrics.Series, float64) {}
func (o *outcomes) Set(metrics.Series, float64)     {}

// A press whose handler failed is answered with an apology and not run
// again, and it is counted as failed: the failed-updates alarm sees a
// broken button.
func TestAPressWhoseHandlerFailedIsCountedAsFailed(t *testing.T) {
	broken := app.Factory{Name: "broken", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "broken", Callbacks: []app.Callback{{Prefix: "br:", Handler: func(context.Context, *app.CallbackRequest) error {
			return errors.New("the handler's store call failed")
		}}}}, nil
	}}
	got := &outcomes{n: map[string]float64{}}
	b := apptest.New(t, []app.Factory{broken}, core.WithMetrics(metrics.New(got)))
	if err := b.Handle(telegramtest.Press(apptest.Group, apptest.User, 5, "br:x")); err != nil {
		t.Fatalf("the failed press: %v; want it answered and acknowledged", err)
	}
	if toasts := b.Toasts(); len(toasts) != 1 || toasts[0] == "" {
		t.Fatalf("answers %q, want one apology", toasts)
	}
	if got.n[metrics.Failed] != 1 || got.n[metrics.Handled] != 0 {
		t.Fatalf("outcomes %v, want the press counted failed, not handled", got.n)
	}
}
