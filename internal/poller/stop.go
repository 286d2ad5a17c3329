package poller

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// errSessionOver cuts the handlers' context once every worker is done.
var errSessionOver = errors.New("poller: the session is over")

// handlerContext is the handlers' context: it survives ctx's end, so an
// update in flight is finished rather than cut off, for the grace period;
// at once when ctx ends with the cutOn cause. Its cause says which, for
// the log of an update cut.
func (p *Poller) handlerContext(ctx context.Context) (context.Context, context.CancelFunc) {
	hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		switch {
		case p.cutOn != nil && errors.Is(context.Cause(ctx), p.cutOn):
			cancel(context.Cause(ctx))
		case p.grace > 0:
			t := time.AfterFunc(p.grace, func() {
				cancel(fmt.Errorf("poller: stopping: the handlers' grace of %s ran out", p.grace))
			})
			context.AfterFunc(hctx, func() { t.Stop() })
		}
	})
	return hctx, func() { stop(); cancel(errSessionOver) }
}

// stopped logs the end of a session, once its workers are done: done when
// it leaves nothing, else cut, with what it leaves, which nobody handles
// until a poller runs again.
func (s *session) stopped(done, cut string) {
	parked, unconfirmed := s.q.left()
	if parked == 0 && unconfirmed == 0 {
		s.p.log.Info(done)
		return
	}
	s.p.log.Warn(cut,
		"parked", parked, "inbox", "the store's core namespace, keys "+inboxPrefix+"*",
		"unconfirmed", unconfirmed) // Telegram still has these and sends them again
}

// left counts the updates a stopped session leaves: parked in the inbox,
// and unconfirmed (fetched, not parked: still Telegram's).
func (q *queues) left() (parked, unconfirmed int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range q.held {
		if e.durable {
			parked++
		} else {
			unconfirmed++
		}
	}
	return parked + len(q.inInbox), unconfirmed
}
