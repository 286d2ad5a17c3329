package apptest

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// StoreFails is a module whose /note reads its store while the store is
// down: a run that fails on the store, after a claim that did not. sw is
// the bot's switch, set once the bot is built (Bot.Store).
func StoreFails(sw **storagetest.Switch) app.Factory {
	return app.Factory{Name: "note", New: func(d app.Deps) (*app.Module, error) {
		return &app.Module{Name: "note", Commands: []app.Command{{Name: "note", Description: "Read a note", Handler: func(ctx context.Context, _ *app.Request) error {
			(*sw).SetDown(true)
			defer (*sw).SetDown(false)
			_, err := d.Store.Get(ctx, "note")
			return err
		}}}}, nil
	}}
}
