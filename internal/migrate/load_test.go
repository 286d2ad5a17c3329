package migrate_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

// TestEveryBackendLoadsByTheSameRule holds each backend's Load to
// storage.LoadOptions.Decide: equal is unchanged, a newer target item is
// kept unless Overwrite, and after a first copy (Since) an old item the
// target lacks is not brought back.
func TestEveryBackendLoadsByTheSameRule(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		ctx := t.Context()
		l := p.(storage.Loader)
		item := func(key, v string, at int64) storage.Item {
			return storage.Item{Namespace: "m", Key: key, Value: []byte(v), UpdatedAt: at}
		}
		if _, err := l.Load(ctx, []storage.Item{item("same", "v", 10), item("newer", "target", 50)}, storage.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
		batch := []storage.Item{item("same", "v", 10), item("newer", "source", 20), item("gone", "old", 5), item("fresh", "new", 99)}
		got, err := l.Load(ctx, batch, storage.LoadOptions{Since: 30})
		want := storage.LoadResult{Written: 1, Unchanged: 1, KeptNewer: 1, Deleted: 1}
		if err != nil || got != want {
			t.Fatalf("keep-newer load = %+v, %v; want %+v", got, err, want)
		}
		if v, _ := p.For("m").Get(ctx, "newer"); string(v) != "target" {
			t.Fatalf("a newer target item became %q", v)
		}
		if _, err := p.For("m").Get(ctx, "gone"); err == nil {
			t.Fatal("an item deleted on the target since the copy came back")
		}
		got, err = l.Load(ctx, batch, storage.LoadOptions{Overwrite: true, Since: 30})
		want = storage.LoadResult{Written: 2, Unchanged: 2}
		if err != nil || got != want {
			t.Fatalf("overwrite load = %+v, %v; want %+v", got, err, want)
		}
	})
}
