package poller_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// heldPark holds the inbox's writes until the test opens gate, and then
// writes them whatever the caller's context says, as a server that got
// the write before the caller gave up does.
type heldPark struct {
	storage.KVStore
	once    sync.Once
	entered chan struct{}
	gate    chan struct{}
}

func (s *heldPark) Put(ctx context.Context, key string, val []byte) error {
	if !strings.HasPrefix(key, storage.InboxPrefix) {
		return s.KVStore.Put(ctx, key, val)
	}
	s.once.Do(func() { close(s.entered) })
	<-s.gate
	if err := s.KVStore.Put(context.Background(), key, val); err != nil {
		return err
	}
	return ctx.Err()
}

// A stop that comes while an update's inbox write is on its way leaves no
// item behind: the write finishes in the handlers' grace, and the update,
// handled meanwhile, has its item deleted before Run returns. (An item
// left behind holds up a migration, which refuses a store whose inbox is
// not empty.)
func TestAStopDuringAnInboxWriteLeavesTheInboxEmpty(t *testing.T) {
	srv := telegramtest.New(t)
	st := &heldPark{KVStore: store(), entered: make(chan struct{}), gate: make(chan struct{})}
	handled := make(chan struct{})
	handle := func(context.Context, *models.Update) error {
		<-st.entered // handled while its write is held
		close(handled)
		return nil
	}
	srv.Push(telegramtest.Text(1, 1, "hello"))
	p := poller.New(client(t, srv), st, handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait),
		poller.WithGrace(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.Run(ctx); close(done) }()
	<-handled
	cancel()
	close(st.gate)
	<-done
	left, err := st.List(context.Background(), storage.InboxPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("the inbox holds %q after the stop", left)
	}
}
