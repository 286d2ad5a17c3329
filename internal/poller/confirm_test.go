package poller_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// batches is a Source serving one batch a getUpdates, then long polls
// that answer nothing; at each getUpdates it checks, as Telegram would
// forget them, that every update below the offset is done or in the inbox.
type batches struct {
	mu      sync.Mutex
	queue   [][]*models.Update // batches still to serve
	served  []*models.Update
	inbox   storage.KVStore
	done    map[int64]bool
	offsets chan int64
	broken  chan string
}

func (b *batches) DeleteWebhook(context.Context, bool) error { return nil }

func (b *batches) GetUpdates(ctx context.Context, offset int64, _ time.Duration) ([]*models.Update, error) {
	b.mu.Lock()
	for _, u := range b.served {
		if u.ID >= offset || b.done[u.ID] {
			continue
		}
		if _, err := b.inbox.Get(ctx, fmt.Sprintf("inbox:c%d:%019d", u.Message.Chat.ID, u.ID)); err != nil {
			b.broken <- fmt.Sprintf("offset %d confirms update %d, neither done nor in the inbox (%v)", offset, u.ID, err)
		}
	}
	b.offsets <- offset
	if len(b.queue) == 0 {
		b.mu.Unlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	batch := b.queue[0]
	b.queue = b.queue[1:]
	b.served = append(b.served, batch...)
	b.mu.Unlock()
	return batch, nil
}

func (b *batches) handle(ctx context.Context, u *models.Update) error {
	if u.Message.Chat.ID == 1 { // the slow chat: it waits until the test ends
		<-ctx.Done()
		return ctx.Err()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done[u.ID] = true
	return nil
}

// The offset never waits on a slow chat's handler: the next getUpdates
// confirms the whole batch once each of its updates is done or stored, so
// a crash after it loses nothing.
func TestEveryFetchedUpdateIsInTheInboxOrDoneBeforeTheNextGetUpdatesConfirmsIt(t *testing.T) {
	src := &batches{
		queue: [][]*models.Update{
			{text(1, 1), text(2, 2), text(3, 1)},
			{text(4, 2), text(5, 1)},
		},
		inbox: store(), done: map[int64]bool{}, offsets: make(chan int64, 10), broken: make(chan string, 10),
	}
	start(t, poller.New(src, src.inbox, src.handle, poller.WithWait(newWaits().wait), poller.WithGrace(time.Millisecond)))
	ctx := testenv.Context(t)
	for _, want := range []int64{1, 4, 6} {
		select {
		case got := <-src.offsets:
			if got != want {
				t.Fatalf("getUpdates offset %d, want %d: the batch before is stored while chat 1 is still running", got, want)
			}
		case broken := <-src.broken:
			t.Fatal(broken)
		case <-ctx.Done():
			t.Fatalf("no getUpdates with offset %d", want)
		}
	}
	select {
	case broken := <-src.broken:
		t.Fatal(broken)
	default:
	}
}

func text(id, chat int64) *models.Update {
	return &models.Update{ID: id, Message: &models.Message{Chat: models.Chat{ID: chat}, Text: fmt.Sprint(id)}}
}
