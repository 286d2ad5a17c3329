package core

import "context"

// Runner is the process that runs the updates of a HandleUpdate call, as
// its claims name it. A runtime that knows when a claim's owner has
// stopped for good (the container's poller, through its polling lease)
// says so, and a run of a process that died is taken over at once instead
// of after the stale mark, its chat held meanwhile. Without a Runner (a
// webhook, Lambda) claims name no owner and only the stale mark frees them.
//
// A Runner handles an update once at a time (the poller does): a run of its
// own still marked running when it claims the update again is one whose
// outcome never got recorded (a write that timed out, yet landed), and is
// taken over too.
type Runner struct {
	// ID names this process in the claims it writes; unique per process.
	ID string
	// Gone reports whether the process named owner is known to have
	// stopped: it will never finish a run it claimed. When unsure (the
	// store cannot say), false.
	Gone func(ctx context.Context, owner string) bool
}

type runnerKey struct{}

// RunAs returns a context under which HandleUpdate claims updates as r.
func RunAs(ctx context.Context, r Runner) context.Context {
	return context.WithValue(ctx, runnerKey{}, r)
}

func runnerOf(ctx context.Context) Runner {
	r, _ := ctx.Value(runnerKey{}).(Runner)
	return r
}

// gone reports whether the run of owner, the owner of a claim, is known to
// have ended without its outcome recorded.
func (r Runner) gone(ctx context.Context, owner string) bool {
	switch {
	case owner == "" || r.ID == "":
		return false
	case owner == r.ID:
		return true // not in flight here: this Runner is claiming it again
	}
	return r.Gone != nil && r.Gone(ctx, owner)
}
