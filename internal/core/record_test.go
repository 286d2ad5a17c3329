package core_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// flakyRecord fails the core's second CompareAndSwap (the outcome's
// record, after the claim), as a store too slow to answer in time does.
type flakyRecord struct {
	storage.KVProvider
	cas atomic.Int32
}

func (f *flakyRecord) For(module string) storage.KVStore {
	s := f.KVProvider.For(module)
	if module != storage.CoreNamespace {
		return s
	}
	return flakyStore{KVStore: s, f: f}
}

type flakyStore struct {
	storage.KVStore
	f *flakyRecord
}

func (s flakyStore) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	if s.f.cas.Add(1) == 2 {
		return errors.New("i/o timeout")
	}
	return s.KVStore.CompareAndSwap(ctx, k, old, v)
}

func TestAnOutcomeWhoseRecordFailsOnceIsRecordedByTheNextTry(t *testing.T) {
	srv := telegramtest.New(t)
	client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	a, err := core.New(&flakyRecord{KVProvider: memory.New()}, client, core.WithModules([]app.Factory{misc.Factory}), core.WithBotUsername("miti99bot"))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the delivery, then Telegram's redelivery
		if err := a.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), 5)); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Messages(); len(got) != 1 {
		t.Fatalf("%d replies, want 1: the redelivery must find the update recorded as handled", len(got))
	}
}

// The poller may hold an update longer than the dedup slots span (a chat's
// long backlog): by its turn, its slot holds a newer update's record. It is
// claimed apart, and the newer update's record stays, so neither runs twice.
func TestAnUpdateOlderThanItsSlotLeavesTheNewerUpdatesRecord(t *testing.T) {
	srv := telegramtest.New(t)
	client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	a, err := core.New(memory.New(), client, core.WithModules([]app.Factory{misc.Factory}), core.WithBotUsername("miti99bot"))
	if err != nil {
		t.Fatal(err)
	}
	const old, newer = 100, 100 + 8192                   // one slot
	for _, id := range []int64{newer, old, newer, old} { // each, then its redelivery
		if err := a.HandleUpdate(t.Context(), withID(telegramtest.Text(private, user, "/ping"), id)); err != nil {
			t.Fatalf("update %d: %v", id, err)
		}
	}
	if got := srv.Messages(); len(got) != 2 {
		t.Fatalf("%d replies, want 2: each update once", len(got))
	}
}
