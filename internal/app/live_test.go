package app_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
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

// liveCount is a state a live message shows: a count and its version.
type liveCount struct {
	N       int   `json:"n"`
	Version int64 `json:"version"`
}

// Changes made at once from many places (replicas, both runtimes) leave
// the message showing the last, and no edit goes back to an older count.
// On every backend: the hold is the store's compare-and-swap.
func TestConcurrentShowsEndOnTheLatestAndNeverGoBack(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			t.Skip(backendtest.FerretDBLimit)
		}
		s, ctx := p.For("live"), t.Context()
		scr := &screen{}
		live := app.Live{Store: s, Bot: scr, Now: time.Now}
		latest := func(ctx context.Context) (app.LiveView, error) {
			var c liveCount
			if err := s.GetJSON(ctx, "count", &c); err != nil {
				return app.LiveView{}, err
			}
			return app.LiveView{Version: c.Version, Edit: app.Edit{ChatID: 1, MessageID: 1, Text: strconv.Itoa(c.N)}}, nil
		}
		const changes = 12
		var wg sync.WaitGroup
		errs := make(chan error, changes)
		for range changes {
			wg.Go(func() {
				err := storage.UpdateJSON(ctx, s, "count", func(c *liveCount, _ bool) (bool, error) {
					c.N++
					c.Version++
					return true, nil
				})
				if err == nil {
					err = live.Show(ctx, "count", latest)
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		scr.mu.Lock()
		defer scr.mu.Unlock()
		if scr.shows != strconv.Itoa(changes) {
			t.Fatalf("the message shows %q after edits %q; want %d", scr.shows, scr.edits, changes)
		}
		for i := 1; i < len(scr.edits); i++ {
			a, _ := strconv.Atoi(scr.edits[i-1])
			b, _ := strconv.Atoi(scr.edits[i])
			if b <= a {
				t.Fatalf("edits %q: %d sent after %d", scr.edits, b, a)
			}
		}
	})
}
