package poller_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestTelegramIsToldOfAnUpdateOnlyOnceItIsHandledOrParked(t *testing.T) {
	tests := []struct {
		name      string
		storeDown bool
		want      func(pending, parked int) error
	}{
		{"a held update is parked, then confirmed", false, func(pending, parked int) error {
			if pending != 0 || parked != 1 {
				return fmt.Errorf("%d pending at Telegram, %d parked; want 0 and 1", pending, parked)
			}
			return nil
		}},
		{"with the store down Telegram keeps it", true, func(pending, parked int) error {
			if pending != 1 || parked != 0 {
				return fmt.Errorf("%d pending at Telegram, %d parked; want 1 and 0", pending, parked)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			sw := storagetest.NewSwitch(memory.New())
			inbox := sw.For(storage.CoreNamespace)
			h := newHandled(1)
			w := newWaits()
			start(t, poller.New(client(t, srv), inbox, h.handle, poller.WithLongPoll(time.Second), poller.WithWait(w.wait)))
			if err := srv.WaitPolling(testenv.Context(t)); err != nil { // the inbox was read
				t.Fatal(err)
			}
			sw.SetDown(tt.storeDown)
			srv.Push(telegramtest.Text(1, 1, "held"))
			// A few fetches later the outcome is settled either way.
			if _, err := srv.WaitCalls(testenv.Context(t), "getUpdates", 4); err != nil {
				t.Fatal(err)
			}
			err := testenv.Eventually(10*time.Second, func() error {
				sw.SetDown(false)
				keys, err := inbox.List(t.Context(), "inbox:")
				sw.SetDown(tt.storeDown)
				if err != nil {
					return err
				}
				return tt.want(srv.Pending(), len(keys))
			})
			if err != nil {
				t.Fatalf("while the update is held: %v", err)
			}
			sw.SetDown(false)
			h.open(1)
			h.waitFor(t, 1, 1)
		})
	}
}

// The fake Bot API returns at most 100 updates a fetch, as Telegram does:
// a chat holding more than that must not hide the other chats' updates.
func TestAChatHoldingHundredsOfUpdatesDoesNotHideTheOtherChats(t *testing.T) {
	const group, held = -100, 300
	srv := telegramtest.New(t)
	h := newHandled(group)
	start(t, poller.New(client(t, srv), store(), h.handle, poller.WithLongPoll(5*time.Second), poller.WithWait(newWaits().wait)))
	want := pushN(srv, group, "g", held)
	for chat := int64(1); chat <= 11; chat++ {
		srv.Push(telegramtest.Text(chat, chat, "/ping"))
		h.waitFor(t, chat, 1)
	}
	// With the group's backlog parked, the poller long-polls again rather
	// than fetching the same updates over and over.
	err := testenv.Eventually(10*time.Second, func() error {
		calls := srv.Calls("getUpdates")
		if last := calls[len(calls)-1]; last.Params["timeout"] == "0" {
			return fmt.Errorf("getUpdates %d polls without waiting (offset %s)", len(calls), last.Params["offset"])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h.open(group)
	h.waitFor(t, group, held)
	if got := h.texts(group); !slices.Equal(got, want) {
		t.Fatalf("the group's updates, handled out of order or twice: %q", got)
	}
}

// A crash loses nothing: the updates confirmed to Telegram were parked, and
// the next run works them first, each chat in order, then what Telegram
// still has.
func TestTheNextRunWorksTheParkedBacklogInEachChatsOrder(t *testing.T) {
	srv := telegramtest.New(t)
	inbox := store()
	first := newHandled(1, 2)
	stop := start(t, poller.New(client(t, srv), inbox, first.handle, poller.WithLongPoll(time.Second),
		poller.WithWait(newWaits().wait), poller.WithGrace(time.Millisecond)))
	want := map[int64][]string{1: pushN(srv, 1, "a", 120), 2: pushN(srv, 2, "b", 30)}
	waitConfirmed(t, srv)
	stop() // its handlers are cut: nothing was handled
	want[1] = append(want[1], pushN(srv, 1, "late", 3)...)

	next := newHandled()
	start(t, poller.New(client(t, srv), inbox, next.handle, poller.WithLongPoll(time.Second),
		poller.WithWait(newWaits().wait), poller.WithLaneMemory(10)))
	for chat, texts := range want {
		next.waitFor(t, chat, len(texts))
		if got := next.texts(chat); !slices.Equal(got, texts) {
			t.Fatalf("chat %d after the restart: %q, want %q", chat, got, texts)
		}
	}
	if err := testenv.Eventually(10*time.Second, func() error {
		if keys, _ := inbox.List(t.Context(), "inbox:"); len(keys) != 0 {
			return fmt.Errorf("%d handled updates still parked", len(keys))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// reads counts the inbox items a poller reads back from the store.
type reads struct {
	storage.KVStore
	mu sync.Mutex
	n  int
}

func (r *reads) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.HasPrefix(key, "inbox:") {
		r.mu.Lock()
		r.n++
		r.mu.Unlock()
	}
	return r.KVStore.Get(ctx, key)
}

func TestAChatsBacklogPastItsMemoryBoundWaitsInTheStore(t *testing.T) {
	const chat, n, memoryBound = 5, 60, 10
	srv := telegramtest.New(t)
	inbox := &reads{KVStore: store()}
	h := newHandled(chat)
	start(t, poller.New(client(t, srv), inbox, h.handle, poller.WithLongPoll(time.Second),
		poller.WithWait(newWaits().wait), poller.WithLaneMemory(memoryBound)))
	want := pushN(srv, chat, "m", n)
	waitConfirmed(t, srv)
	h.open(chat)
	h.waitFor(t, chat, n)
	if got := h.texts(chat); !slices.Equal(got, want) {
		t.Fatalf("handled %q", got)
	}
	inbox.mu.Lock()
	defer inbox.mu.Unlock()
	if inbox.n < n-memoryBound {
		t.Fatalf("%d updates read back from the store; the %d past the bound must wait there", inbox.n, n-memoryBound)
	}
}

// A container switched to webhook mode polls no more: it works the inbox
// a poller left, each chat in order, and calls no getUpdates.
func TestDrainWorksTheParkedBacklogWithoutPolling(t *testing.T) {
	srv := telegramtest.New(t)
	inbox := store()
	first := newHandled(1, 2)
	stop := start(t, poller.New(client(t, srv), inbox, first.handle, poller.WithLongPoll(time.Second),
		poller.WithWait(newWaits().wait), poller.WithGrace(time.Millisecond)))
	want := map[int64][]string{1: pushN(srv, 1, "a", 20), 2: pushN(srv, 2, "b", 5)}
	waitConfirmed(t, srv)
	stop()
	polls := len(srv.Calls("getUpdates"))

	next := newHandled()
	p := poller.New(client(t, srv), inbox, next.handle, poller.WithWait(newWaits().wait))
	if err := p.Drain(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	for chat, texts := range want {
		if got := next.texts(chat); !slices.Equal(got, texts) {
			t.Fatalf("chat %d drained %q, want %q", chat, got, texts)
		}
	}
	if keys, _ := inbox.List(t.Context(), "inbox:"); len(keys) != 0 {
		t.Fatalf("%d updates left in the inbox", len(keys))
	}
	if n := len(srv.Calls("getUpdates")); n != polls {
		t.Fatalf("Drain polled: %d getUpdates", n-polls)
	}
}
