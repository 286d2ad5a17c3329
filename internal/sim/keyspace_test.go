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
	if bad := diffKeys(heldBy(t, p), ks.items, ks.deleted); len(bad) > 0 {
		t.Fatalf("the bot's own writes: %q", bad)
	}
	// Behind the bot's back, as a copy that forgot a deletion would.
	other := p.For("stats")
	must(other.Put(ctx, "gone", []byte("1")))
	must(other.Put(ctx, "stale", []byte("old")))
	must(other.Delete(ctx, "lost"))
	must(other.Put(ctx, "stranger", []byte("6")))
	got := diffKeys(heldBy(t, p), ks.items, ks.deleted)
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
