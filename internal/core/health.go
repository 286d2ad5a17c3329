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
	// Serving, but not every user: degraded until the operator repairs.
	switch items, err := DamagedItems(ctx, a.provider); {
	case err != nil:
		return &HealthError{Reason: "store unavailable", Err: err}
	case len(items) > 0:
		return &HealthError{Degraded: true, Reason: fmt.Sprintf("%d stored item(s) cannot be read: botctl store scan", len(items)),
			Err: fmt.Errorf("damaged: %s/%s", items[0].Namespace, items[0].Key)}
	}
	return nil
}

// HealthError is a failed health check. Reason is safe to show whoever
// asks (the /healthz body, which a Lambda Function URL makes public); Err,
// the detail, is for the log. A Degraded one still serves (a damaged item
// fails its users only): /healthz answers 200 and says so, so that no
// orchestrator restarts a process a restart cannot mend.
type HealthError struct {
	Reason   string
	Err      error
	Degraded bool
}

// IsDegraded reports whether err is a degraded health, not a failed one.
func IsDegraded(err error) bool {
	var he *HealthError
	return errors.As(err, &he) && he.Degraded
}

func (e *HealthError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return fmt.Sprintf("%s: %v", e.Reason, e.Err)
}

func (e *HealthError) Unwrap() error { return e.Err }
