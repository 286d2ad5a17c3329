package poller_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// A stop that leaves updates parked says how many, and where they wait:
// nobody answers them until a poller runs again.
func TestAStopSaysHowManyUpdatesItLeavesParkedAndWhere(t *testing.T) {
	srv := telegramtest.New(t)
	logs := &testenv.Buffer{}
	inFlight, release := make(chan struct{}), make(chan struct{})
	handle := func(_ context.Context, u *models.Update) error {
		if u.Message.Text == "first" {
			close(inFlight)
			<-release
		}
		return nil
	}
	srv.Push(telegramtest.Text(1, 1, "first"), telegramtest.Text(1, 1, "second"), telegramtest.Text(1, 1, "third"))
	p := poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithGrace(time.Hour), poller.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	<-inFlight
	waitConfirmed(t, srv) // the two behind it are parked
	cancel()
	close(release)
	<-done
	var stopped string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "polling stopped") {
			stopped = line
		}
	}
	if !strings.Contains(stopped, `"parked":2`) || !strings.Contains(stopped, "inbox:") {
		t.Fatalf("want the stop's line to say 2 updates are parked in the inbox, got:\n%s", logs.String())
	}
}

// An update cut because the polling role was lost (the store failed every
// renewal) says that, not that a shutdown cut it: nothing shut down.
func TestAnUpdateCutByALostRoleSaysWhyNotShutdown(t *testing.T) {
	srv := telegramtest.New(t)
	logs := &testenv.Buffer{}
	lost := errors.New("lease lost: the store failed every renewal")
	inFlight := make(chan struct{})
	handle := func(ctx context.Context, _ *models.Update) error {
		close(inFlight)
		<-ctx.Done()
		return fmt.Errorf("claim: %w", ctx.Err())
	}
	id := srv.Push(telegramtest.Text(1, 1, "slow"))[0]
	p := poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithGrace(time.Hour), poller.WithCutAtOnce(lost), poller.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	<-inFlight
	cancel(lost)
	<-done
	var line string
	for l := range strings.Lines(logs.String()) {
		if strings.Contains(l, fmt.Sprintf(`"update_id":%d,`, id)) {
			line = l
		}
	}
	if !strings.Contains(line, lost.Error()) || strings.Contains(line, "shutdown") {
		t.Fatalf("want the cut update's line to name the lost role, not a shutdown, got:\n%s", logs.String())
	}
}
