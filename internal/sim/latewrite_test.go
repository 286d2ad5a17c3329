package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// unanswered is a store whose writes get no answer: the caller's deadline
// passes while the server still holds them (they land when land is called).
type unanswered struct {
	storage.KVProvider
	later []func()
}

func (u *unanswered) For(ns string) storage.KVStore {
	return &unansweredNS{KVStore: u.KVProvider.For(ns), u: u}
}

type unansweredNS struct {
	storage.KVStore
	u *unanswered
}

func (n *unansweredNS) Put(ctx context.Context, key string, val []byte) error {
	n.u.later = append(n.u.later, func() { _ = n.KVStore.Put(context.Background(), key, val) })
	return context.DeadlineExceeded
}

func (n *unansweredNS) Delete(ctx context.Context, key string) error {
	n.u.later = append(n.u.later, func() { _ = n.KVStore.Delete(context.Background(), key) })
	return context.DeadlineExceeded
}

func (u *unanswered) land() {
	for _, f := range u.later {
		f()
	}
	u.later = nil
}

// A write with no answer may land after the store was read to learn what
// it did: until the bot writes the key again, the value before it and the
// one it wrote are both the bot's; any other is named, and the next write
// decides.
func TestAWriteWithNoAnswerMayLandLateAndIsStillTheBots(t *testing.T) {
	ctx := t.Context()
	p := memory.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ks := newKeyspace(t, p)
	must((&recorder{KVProvider: p, ks: ks}).For("stats").Put(ctx, "n", []byte("1")))
	must((&recorder{KVProvider: p, ks: ks}).For("stats").Put(ctx, "gone", []byte("x")))
	slow := &unanswered{KVProvider: p}
	bot := (&recorder{KVProvider: slow, ks: ks}).For("stats")
	if err := bot.Put(ctx, "n", []byte("2")); err == nil {
		t.Fatal("the write was answered")
	}
	if err := bot.Delete(ctx, "gone"); err == nil {
		t.Fatal("the delete was answered")
	}
	diff := func() []string { return diffKeys(heldBy(t, p), ks.items, ks.deleted, ks.open) }
	if bad := diff(); len(bad) > 0 {
		t.Fatalf("before the writes land: %q", bad)
	}
	slow.land()
	if bad := diff(); len(bad) > 0 {
		t.Fatalf("after they land: %q", bad)
	}
	must(p.For("stats").Put(ctx, "n", []byte("3"))) // behind the bot's back
	if got, want := diff(), []string{`stats/"n": neither its last write nor the one that had no answer`}; !slices.Equal(got, want) {
		t.Fatalf("a third value: %q, want %q", got, want)
	}
	must((&recorder{KVProvider: p, ks: ks}).For("stats").Put(ctx, "n", []byte("4")))
	must(p.For("stats").Put(ctx, "n", []byte("2")))
	if got, want := diff(), []string{`stats/"n": not its last write`}; !slices.Equal(got, want) {
		t.Fatalf("once a write decided the key: %q, want %q", got, want)
	}
}
