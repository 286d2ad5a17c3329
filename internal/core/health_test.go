package core_test

import (
	"context"
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// failingWrites is a store whose reads answer while its writes fail, as
// the embedded file does on a full disk.
type failingWrites struct {
	storage.KVProvider
	err error
}

func (f failingWrites) Healthy(context.Context) error { return f.err }

func TestHealthTurnsRedWhileTheStoreSaysItsWritesFail(t *testing.T) {
	full := errors.New("bolt: /data/miti99bot.db: write: no space left on device")
	for _, c := range []struct {
		name   string
		report error
		reason string
	}{
		{"writes landing", nil, ""},
		{"writes failing", full, "store writes failing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := core.New(failingWrites{memory.New(), c.report}, sink{t})
			if err != nil {
				t.Fatal(err)
			}
			err = a.Health(t.Context())
			var he *core.HealthError
			switch {
			case c.reason == "" && err != nil:
				t.Fatalf("Health = %v, want healthy", err)
			case c.reason != "" && (!errors.As(err, &he) || he.Reason != c.reason || !errors.Is(err, full)):
				t.Fatalf("Health = %v, want reason %q wrapping the store's report", err, c.reason)
			}
		})
	}
}
