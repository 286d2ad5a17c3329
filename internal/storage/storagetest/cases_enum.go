package storagetest

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// collect drains p.Items for one namespace.
func collect(ctx context.Context, t *testing.T, p storage.KVProvider, ns string) []storage.Item {
	t.Helper()
	var items []storage.Item
	for it, err := range p.Items(ctx, ns) {
		if err != nil {
			t.Fatalf("Items(%q): %v", ns, err)
		}
		items = append(items, it)
	}
	return items
}

var enumerationCases = []testCase{
	{"namespaces lists every module with data, sorted", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		wantEmptyProvider(ctx, t, p)
		for _, m := range []string{"zeta", "alpha", "mid-1"} {
			mustPut(ctx, t, p.For(m), "k", []byte("v"))
		}
		ns, err := p.Namespaces(ctx)
		if err != nil {
			t.Fatalf("Namespaces: %v", err)
		}
		if want := []string{"alpha", "mid-1", "zeta"}; !slices.Equal(ns, want) {
			t.Fatalf("Namespaces = %q, want %q", ns, want)
		}
	}},
	{"items streams keys in order with raw values and update times", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		before := time.Now().Add(-time.Minute).UnixNano()
		want := map[string][]byte{"b": {0xFF, 0x00}, "a": []byte("plain"), "c": {}}
		for k, v := range want {
			mustPut(ctx, t, s, k, v)
		}
		mustPut(ctx, t, p.For("other"), "a", []byte("not mine"))
		after := time.Now().Add(time.Minute).UnixNano()

		items := collect(ctx, t, p, "mod")
		var keys []string
		for _, it := range items {
			keys = append(keys, it.Key)
			if it.Namespace != "mod" {
				t.Errorf("item %q has namespace %q", it.Key, it.Namespace)
			}
			if !bytes.Equal(it.Value, want[it.Key]) || it.Value == nil {
				t.Errorf("item %q value = %#v, want %#v", it.Key, it.Value, want[it.Key])
			}
			// A generous window: the clock of a server may differ a little.
			if it.UpdatedAt < before || it.UpdatedAt > after {
				t.Errorf("item %q UpdatedAt = %d, outside the write window", it.Key, it.UpdatedAt)
			}
		}
		if !slices.Equal(keys, []string{"a", "b", "c"}) {
			t.Fatalf("Items keys = %q, want a b c", keys)
		}
	}},
	{"a later write moves UpdatedAt forward", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("1"))
		first := collect(ctx, t, p, "mod")[0].UpdatedAt
		if err := s.CompareAndSwap(ctx, "k", []byte("1"), []byte("2")); err != nil {
			t.Fatalf("CAS: %v", err)
		}
		if second := collect(ctx, t, p, "mod")[0].UpdatedAt; second < first {
			t.Fatalf("UpdatedAt went back: %d then %d", first, second)
		}
	}},
	{"items of an unknown namespace is empty, and breaking out stops early", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		if items := collect(ctx, t, p, "nobody"); len(items) != 0 {
			t.Fatalf("Items(nobody) = %d items", len(items))
		}
		s := p.For("mod")
		for _, k := range []string{"a", "b", "c"} {
			mustPut(ctx, t, s, k, []byte(k))
		}
		n := 0
		for _, err := range p.Items(ctx, "mod") {
			if err != nil {
				t.Fatalf("Items: %v", err)
			}
			n++
			break
		}
		if n != 1 {
			t.Fatalf("loop ran %d times after break", n)
		}
	}},
}
