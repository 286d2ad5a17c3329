package testenv

import (
	"context"
	"testing"
	"time"
)

// WaitLimit bounds a wait for something that should happen at once: a
// failure then reads as the test's own message, not as go test's timeout
// killing the whole package ten minutes later.
const WaitLimit = time.Minute

// Context ends when the test does or after WaitLimit, whichever is first.
// t.Context() alone ends only after the test, so a select on it never fires.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), WaitLimit)
	t.Cleanup(cancel)
	return ctx
}
