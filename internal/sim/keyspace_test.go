package sim

import (
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// TestTheKeyspaceNamesEveryKeyUnlikeTheBotsWrites: a key the bot deleted
// that is back, a value that is not its last write, a key lost and one it
// never wrote are each named; what the bot's writes left is not.
func TestTheKeyspaceNamesEveryKeyUnlikeTheBotsWrites(t *testing.T) {
	ctx := t.Context()
	p := memory.New()
	ks := newKeyspace(t, p)
	bot := (&recorder{KVProvider: p, ks: ks}).For("stats")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(bot.Put(ctx, "gone", []byte("1")))
	must(bot.Delete(ctx, "gone"))
	must(bot.PutJSON(ctx, "json", map[string]int{"n": 2}))
	must(bot.CompareAndSwap(ctx, "cas", nil, []byte("3")))
	must(bot.Put(ctx, "lost", []byte("4")))
	must(bot.Put(ctx, "stale", []byte("5")))
	if bad := diffKeys(heldBy(t, p), ks.items, ks.deleted, nil); len(bad) > 0 {
		t.Fatalf("the bot's own writes: %q", bad)
	}
	// Behind the bot's back, as a copy that forgot a deletion would.
	other := p.For("stats")
	must(other.Put(ctx, "gone", []byte("1")))
	must(other.Put(ctx, "stale", []byte("old")))
	must(other.Delete(ctx, "lost"))
	must(other.Put(ctx, "stranger", []byte("6")))
	got := diffKeys(heldBy(t, p), ks.items, ks.deleted, nil)
	want := []string{`stats/"gone": deleted by the bot, back`, `stats/"lost": lost`, `stats/"stale": not its last write`, `stats/"stranger": never written by the bot`}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func heldBy(t *testing.T, p *memory.Provider) map[nsKey][]byte {
	t.Helper()
	held, err := holdings(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	return held
}

// TestASnapshotIsTheStoreAfterSomeOfTheWrites: a snapshot taken while
// writes went on is the store after a prefix of them, or after the later
// of two that ran at once; a store that skipped a write is no instant.
func TestASnapshotIsTheStoreAfterSomeOfTheWrites(t *testing.T) {
	a, b, c := nsKey{"stats", "a"}, nsKey{"core", "b"}, nsKey{"stats", "c"}
	before := map[nsKey][]byte{a: []byte("0")}
	journal := []journalEntry{
		{k: a, v: []byte("1"), began: 1, done: 2},
		{k: b, v: []byte("2"), began: 3, done: 5}, // b and c ran at once
		{k: c, v: []byte("3"), began: 4, done: 6},
	}
	for _, tc := range []struct {
		name string
		held map[nsKey][]byte
		n    int
		ok   bool
	}{
		{"before any", map[nsKey][]byte{a: []byte("0")}, 0, true},
		{"after the first", map[nsKey][]byte{a: []byte("1")}, 1, true},
		{"after all", map[nsKey][]byte{a: []byte("1"), b: []byte("2"), c: []byte("3")}, 3, true},
		{"the concurrent later one first", map[nsKey][]byte{a: []byte("1"), c: []byte("3")}, 2, true},
		{"a later write without an earlier one", map[nsKey][]byte{a: []byte("0"), b: []byte("2")}, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, n, ok := instant(tc.held, before, map[nsKey]bool{}, nil, journal); n != tc.n || ok != tc.ok {
				t.Fatalf("instant = %d, %t; want %d, %t", n, ok, tc.n, tc.ok)
			}
		})
	}
}
