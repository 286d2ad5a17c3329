package poller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestStoppingFinishesTheUpdateInFlight(t *testing.T) {
	srv := telegramtest.New(t)
	inFlight, release := make(chan struct{}), make(chan struct{})
	var finished bool
	handle := func(ctx context.Context, _ *models.Update) error {
		close(inFlight)
		<-release
		finished = ctx.Err() == nil
		return nil
	}
	srv.Push(telegramtest.Text(1, 1, "slow"))
	stop := start(t, poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait)))
	<-inFlight
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Run returned with a handler in flight")
	default:
	}
	close(release)
	<-stopped
	if !finished {
		t.Fatal("the handler's context was cancelled by the shutdown")
	}
}

// A stop is graceful: handlers get their grace. A lost polling role is
// not: the process that took it over takes over the runs in flight here,
// so they are cut at once.
func TestHandlersAreCutAtOnceOnlyWhenTheRoleIsLost(t *testing.T) {
	lost := errors.New("role lost")
	tests := []struct {
		name    string
		cause   error
		wantCut bool
	}{
		{"a shutdown lets the handler finish", context.Canceled, false},
		{"a lost role cuts the handler", lost, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			inFlight, release := make(chan struct{}), make(chan struct{})
			cut := make(chan bool, 1)
			handle := func(ctx context.Context, _ *models.Update) error {
				close(inFlight)
				select {
				case <-ctx.Done():
					cut <- true
				case <-release:
					cut <- false
				}
				return ctx.Err()
			}
			srv.Push(telegramtest.Text(1, 1, "slow"))
			p := poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
				poller.WithGrace(time.Hour), poller.WithCutAtOnce(lost))
			ctx, cancel := context.WithCancelCause(context.Background())
			done := make(chan struct{})
			go func() { _ = p.Run(ctx); close(done) }()
			<-inFlight
			cancel(tt.cause)
			if !tt.wantCut {
				close(release)
			}
			if got := <-cut; got != tt.wantCut {
				t.Fatalf("handler cut = %v, want %v", got, tt.wantCut)
			}
			<-done
		})
	}
}
