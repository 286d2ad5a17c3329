package poller_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// waits records the poller's back-offs instead of sleeping.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
	ch chan time.Duration
}

func newWaits() *waits { return &waits{ch: make(chan time.Duration, 100)} }

func (w *waits) wait(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	select {
	case w.ch <- d:
	default:
	}
	return ctx.Err()
}

func client(t testing.TB, srv *telegramtest.Server) *telegram.Client {
	c, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// start runs the poller until the test ends, returning a stop func that
// cancels it and waits for Run to return.
func start(t *testing.T, p *poller.Poller) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// recorder keeps the texts handled per chat and signals each one.
type recorder struct {
	mu     sync.Mutex
	byChat map[int64][]string
	seen   chan string
}

func newRecorder() *recorder {
	return &recorder{byChat: map[int64][]string{}, seen: make(chan string, 100)}
}

func (r *recorder) add(u *models.Update) {
	r.mu.Lock()
	r.byChat[u.Message.Chat.ID] = append(r.byChat[u.Message.Chat.ID], u.Message.Text)
	r.mu.Unlock()
	r.seen <- u.Message.Text
}

func (r *recorder) waitFor(t *testing.T, n int) {
	for range n {
		select {
		case <-r.seen:
		case <-testenv.Context(t).Done():
			t.Fatal("updates were not handled")
		}
	}
}

// store is a fresh core namespace for a poller's inbox.
func store() storage.KVStore { return memory.New().For(storage.CoreNamespace) }

// handled records the texts handled per chat, in order, and lets a test
// hold the chats it names until it opens them.
type handled struct {
	mu      sync.Mutex
	byChat  map[int64][]string
	changed chan struct{}
	held    map[int64]chan struct{}
}

func newHandled(holding ...int64) *handled {
	h := &handled{byChat: map[int64][]string{}, changed: make(chan struct{}), held: map[int64]chan struct{}{}}
	for _, chat := range holding {
		h.held[chat] = make(chan struct{})
	}
	return h
}

// handle is a poller.Handler: a held chat's update waits for open (or for
// its context: a cut handler fails, as the core's would).
func (h *handled) handle(ctx context.Context, u *models.Update) error {
	if u.Message == nil {
		return nil
	}
	chat := u.Message.Chat.ID
	h.mu.Lock()
	gate := h.held[chat]
	h.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	h.mu.Lock()
	h.byChat[chat] = append(h.byChat[chat], u.Message.Text)
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
	return nil
}

// open lets a held chat's updates through.
func (h *handled) open(chat int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.held[chat])
	delete(h.held, chat)
}

// openAll lets every held chat through.
func (h *handled) openAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for chat, gate := range h.held {
		close(gate)
		delete(h.held, chat)
	}
}

func (h *handled) texts(chat int64) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.byChat[chat])
}

// waitFor waits until chat has n updates handled.
func (h *handled) waitFor(t *testing.T, chat int64, n int) {
	t.Helper()
	ctx := testenv.Context(t)
	for {
		h.mu.Lock()
		got, ch := len(h.byChat[chat]), h.changed
		h.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("chat %d: %d of %d updates handled", chat, got, n)
		}
	}
}

// pushN queues n texts "<prefix><i>" from chat and returns them.
func pushN(srv *telegramtest.Server, chat int64, prefix string, n int) []string {
	var texts []string
	for i := range n {
		text := fmt.Sprintf("%s%03d", prefix, i)
		srv.Push(telegramtest.Text(chat, chat, text))
		texts = append(texts, text)
	}
	return texts
}

// waitConfirmed waits until Telegram has been told of every update queued.
func waitConfirmed(t *testing.T, srv *telegramtest.Server) {
	t.Helper()
	if err := testenv.Eventually(10*time.Second, func() error {
		if n := srv.Pending(); n != 0 {
			return fmt.Errorf("%d updates not confirmed yet", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
