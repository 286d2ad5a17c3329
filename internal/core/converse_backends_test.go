package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Two replicas share one store: the conversation one starts, the other
// moves; a message delivered to both moves it once, and of the two
// replicas' timer ticks one ends it, with one message.
func TestAConversationCrossesReplicasAndTimesOutOnceOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		k := newAsker("ask")
		k.silent = true
		clk := apptest.NewClock(apptest.T0)
		first := apptest.NewOnStore(t, p, telegramtest.New(t), nil, []app.Factory{k.factory()}, core.WithClock(clk.Now))
		second, err := core.New(p, first.Client, core.WithModules([]app.Factory{k.factory()}), core.WithClock(clk.Now), core.WithBotUsername("miti99bot"))
		if err != nil {
			t.Fatal(err)
		}
		first.MustSay(private, user, "/ask")
		for _, a := range []*core.App{second, first.App} {
			u := telegramtest.Text(private, user, "Ann")
			u.ID = 9_100_001
			if err := a.HandleUpdate(t.Context(), u); err != nil {
				t.Fatal(err)
			}
		}
		if n := k.steps.Load(); n != 1 {
			t.Fatalf("the step ran %d times, want 1", n)
		}
		clk.Add(2 * time.Minute)
		for _, a := range []*core.App{second, first.App, second} {
			if _, err := a.Timers().Tick(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		for _, r := range first.Replies() {
			if strings.HasPrefix(r, "No answer came in time") {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("replies %q: want one time-out message", first.Replies())
		}
	})
}
