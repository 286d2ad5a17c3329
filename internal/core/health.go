package core

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Health reports whether the bot can serve: whether the store answers a
// cheap read of the core's namespace, and whether its writes land (a
// provider that knows, the embedded file on a full disk, says so).
func (a *App) Health(ctx context.Context) error {
	if _, err := a.core.Get(ctx, "healthz"); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return &HealthError{Reason: "store unavailable", Err: err}
	}
	if err := storage.Healthy(ctx, a.provider); err != nil {
		return &HealthError{Reason: "store writes failing", Err: err}
	}
	return nil
}

// HealthError is a failed health check. Reason is safe to show whoever
// asks (the /healthz body, which a Lambda Function URL makes public); Err,
// the detail, is for the log.
type HealthError struct {
	Reason string
	Err    error
}

func (e *HealthError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return fmt.Sprintf("%s: %v", e.Reason, e.Err)
}

func (e *HealthError) Unwrap() error { return e.Err }
