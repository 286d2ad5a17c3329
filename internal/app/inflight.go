package app

import "errors"

// ErrInFlight: the work (an update, a claim) is being done elsewhere:
// another instance, or a run that died and whose claim is neither stale nor
// known abandoned yet. It is not done: a runtime must not acknowledge it (the
// poller keeps its offset, the webhook answers 5xx), so it comes again until
// it is done or taken over.
var ErrInFlight = errors.New("being handled elsewhere")
