package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Health reports whether the bot can serve: today, whether the store
// answers a cheap read of the core's namespace.
func (a *App) Health(ctx context.Context) error {
	if _, err := a.core.Get(ctx, "healthz"); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("store unavailable: %w", err)
	}
	return nil
}
