package mongodb_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

// Two loads of the same new items at once: one InsertMany wins, the other
// meets duplicate keys and falls back to upserts; both succeed.
func TestConcurrentLoadsOfNewItemsBothSucceed(t *testing.T) {
	p := backendtest.Mongo(t)
	var items []storage.Item
	for i := range 50 {
		items = append(items, storage.Item{Namespace: "m", Key: fmt.Sprintf("k%02d", i), Value: []byte{byte(i)}, UpdatedAt: int64(i)})
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := p.Load(t.Context(), items, storage.LoadOptions{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	keys, err := p.For("m").List(t.Context(), "")
	if err != nil || len(keys) != 50 {
		t.Fatalf("after two concurrent loads: %d keys, %v", len(keys), err)
	}
	if n, err := p.Load(t.Context(), items, storage.LoadOptions{}); err != nil || n.Written != 0 {
		t.Fatalf("a third load changed %+v (%v), want none", n, err)
	}
}
