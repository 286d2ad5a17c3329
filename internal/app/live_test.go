package app_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// screen is a Messenger that keeps what one message shows; an edit of the
// text in hold waits for release first.
type screen struct {
	app.Messenger
	mu            sync.Mutex
	shows         string
	edits         []string
	hold          string
	held, release chan struct{}
}

func (s *screen) Edit(_ context.Context, e app.Edit) error {
	if e.Text == s.hold {
		close(s.held)
		<-s.release
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shows, s.edits = e.Text, append(s.edits, e.Text)
	return nil
}

func TestAShowThatOutlivedItsHoldLeavesTheLatestStateShown(t *testing.T) {
	var version atomic.Int64
	now := time.Unix(1_700_000_000, 0)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	scr := &screen{hold: "v1", held: make(chan struct{}), release: make(chan struct{})}
	live := app.Live{Store: memory.New().For("live"), Bot: scr, Now: func() time.Time { return *clock.Load() }}
	latest := func(context.Context) (app.LiveView, error) {
		v := version.Load()
		return app.LiveView{Version: v, Edit: app.Edit{ChatID: 1, MessageID: 1, Text: "v" + string(rune('0'+v))}}, nil
	}

	version.Store(1)
	slow := make(chan error, 1)
	go func() { slow <- live.Show(t.Context(), "m", latest) }()
	<-scr.held // its edit to v1 hangs past LiveStale
	later := now.Add(app.LiveStale + time.Second)
	clock.Store(&later)
	version.Store(2)
	if err := live.Show(t.Context(), "m", latest); err != nil {
		t.Fatal(err)
	}
	close(scr.release) // the late edit to v1 lands after v2's
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
	scr.mu.Lock()
	defer scr.mu.Unlock()
	if scr.shows != "v2" {
		t.Fatalf("the message shows %q after edits %q; want v2", scr.shows, scr.edits)
	}
}

func TestAShowOfAVersionTelegramShowsSendsNothing(t *testing.T) {
	scr := &screen{}
	live := app.Live{Store: memory.New().For("live"), Bot: scr, Now: time.Now}
	latest := func(context.Context) (app.LiveView, error) {
		return app.LiveView{Version: 3, Edit: app.Edit{ChatID: 1, MessageID: 1, Text: "v3"}}, nil
	}
	for range 3 {
		if err := live.Show(t.Context(), "m", latest); err != nil {
			t.Fatal(err)
		}
	}
	if len(scr.edits) != 1 {
		t.Fatalf("edits %q: want one", scr.edits)
	}
}
