package app_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

func TestCommandHooksSeeEveryCommandAndCannotFailIt(t *testing.T) {
	var mu sync.Mutex
	var events []app.CommandEvent
	watcher := app.Factory{Name: "watcher", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "watcher", OnCommand: func(_ context.Context, ev app.CommandEvent) error {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev)
			return errors.New("hook storage is down")
		}}, nil
	}}
	b := apptest.New(t, append(builtin.Catalogue(), watcher))
	b.MustSay(apptest.Group, apptest.User, "/ping")
	b.MustSay(apptest.Group, apptest.User, "/nope") // unknown: not a command event
	if len(events) != 1 || events[0].Module != "misc" || events[0].Command != "ping" || events[0].ChatID != apptest.Group || events[0].UserID != apptest.User {
		t.Fatalf("events = %+v", events)
	}
	if b.Last() != "pong" {
		t.Fatalf("a failing hook changed the reply: %q", b.Last())
	}
}
