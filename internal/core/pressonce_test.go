package core_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// tally counts presses of its button, each once per update (ApplyOnce by
// the press's update id), and replies with the count; a reply that fails
// leaves the press unfinished, so it runs again.
type tally struct {
	app.Once[int]
	N int `json:"n"`
}

func counter() app.Factory {
	return app.Factory{Name: "counter", New: func(d app.Deps) (*app.Module, error) {
		return &app.Module{Name: "counter", Callbacks: []app.Callback{{Prefix: "count:", Handler: func(ctx context.Context, r *app.CallbackRequest) error {
			n, err := app.ApplyOnce(ctx, d.Store, "tally", r.UpdateID(), func(s *tally, _ bool) (int, error) {
				s.N++
				return s.N, nil
			})
			if err != nil {
				return err
			}
			if _, err := r.Reply(ctx, fmt.Sprintf("pressed %d times", n)); err != nil {
				return app.Unfinished(err) // counted: run again, it counts no more
			}
			return nil
		}}}}, nil
	}}
}

func TestAPressCarriesItsUpdateIDSoItsChangeIsAppliedOnceOnRedelivery(t *testing.T) {
	b := apptest.New(t, []app.Factory{counter()})
	press := withID(telegramtest.Press(group, owner, 7, "count:+"), 4242)
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := b.Handle(press); err == nil {
		t.Fatal("the press whose reply failed was handled: Telegram would not deliver it again")
	}
	if err := b.Handle(press); err != nil {
		t.Fatalf("the redelivery: %v", err)
	}
	if got := b.Last(); got != "pressed 1 times" {
		t.Fatalf("the redelivered press counted again: %q", got)
	}
	if err := b.Handle(telegramtest.Press(group, owner, 7, "count:+")); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "pressed 2 times" {
		t.Fatalf("another press: %q", got)
	}
}
