package core_test

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// The engine's timers job exists when an enabled module has OnTimer, and
// is otherwise a disabled job (its schedule's fires are skipped, not
// failed); a module of the same name cannot take it.
func TestTheTimersJobIsRegisteredWhenAModuleHasTimers(t *testing.T) {
	onTimer := func(context.Context, app.Timer) error { return nil }
	tests := []struct {
		name          string
		modules       []app.Factory
		job, disabled bool
		err           bool
	}{
		{"a module with OnTimer enables it", []app.Factory{module(app.Module{Name: "alpha", OnTimer: onTimer})}, true, false, false},
		{"no module with OnTimer: a disabled job", []app.Factory{module(app.Module{Name: "alpha"})}, false, true, false},
		{"a module cannot take its name", []app.Factory{module(app.Module{Name: core.TimersJob, OnTimer: onTimer})}, false, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client, _ := telegram.New("1:x")
			a, err := core.New(memory.New(), client, core.WithModules(tc.modules))
			if tc.err {
				if err == nil {
					t.Fatal("built, want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			job, ok := a.Registry().CronByName(core.TimersJob)
			_, disabled := a.Registry().DisabledJob(core.TimersJob)
			if ok != tc.job || disabled != tc.disabled || ok && job.Schedule != "* * * * *" {
				t.Errorf("job %v (%+v), disabled %v; want %v, %v", ok, job, disabled, tc.job, tc.disabled)
			}
		})
	}
}
