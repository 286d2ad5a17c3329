package storagetest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var listCases = []testCase{
	{"an empty namespace lists a non-nil empty slice", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		for _, prefix := range []string{"", "nothing"} {
			keys := mustList(ctx, t, s, prefix)
			if keys == nil || len(keys) != 0 {
				t.Fatalf("List(%q) = %#v, want []string{}", prefix, keys)
			}
		}
	}},
	{"keys come back byte-wise sorted", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		// Upper case sorts before lower case, and multi-byte runes after ASCII,
		// in byte order; a collation-aware backend would get this wrong.
		in := []string{"b", "a", "B", "A", "é", "z", "~", "a b", "user:10", "user:9", "ä", "日本", "😀"}
		for _, k := range in {
			mustPut(ctx, t, s, k, []byte(k))
		}
		want := slices.Clone(in)
		slices.Sort(want)
		if got := mustList(ctx, t, s, ""); !slices.Equal(got, want) {
			t.Fatalf("List(\"\") = %q, want %q", got, want)
		}
	}},
	{"a prefix selects exactly the keys that start with it", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		for _, k := range []string{"user:1", "user:2", "user:10", "user", "users:1", "usea", "other"} {
			mustPut(ctx, t, s, k, []byte("x"))
		}
		cases := map[string][]string{
			"user:":  {"user:1", "user:10", "user:2"},
			"user":   {"user", "user:1", "user:10", "user:2", "users:1"},
			"user:1": {"user:1", "user:10"},
			"zzz":    {},
			"o":      {"other"},
		}
		for prefix, want := range cases {
			if got := mustList(ctx, t, s, prefix); !slices.Equal(got, want) {
				t.Errorf("List(%q) = %q, want %q", prefix, got, want)
			}
		}
	}},
	{"prefixes ending at rune-width edges have exact upper bounds", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		// For each edge rune r, keys starting "p"+r must be listed and the
		// first string past the range, "p"+(r+1), must not. A
		// backend that builds its range bound by incrementing the last byte
		// produces invalid UTF-8 here, which the servers reject.
		edges := []struct {
			name       string
			last, past string // past: the first key after the range
		}{
			{"U+007F", "\u007f", "p\u0080"},
			{"U+00FF", "\u00ff", "p\u0100"},
			{"U+07FF", "\u07ff", "p\u0800"},
			{"U+D7FF", "\ud7ff", "p\ue000"},
			{"U+FFFF", "\uffff", "p\U00010000"},
			{"U+10FFFF", "\U0010ffff", "q"},
		}
		for _, e := range edges {
			t.Run(e.name, func(t *testing.T) {
				s := p.For("edge" + strings.ToLower(strings.TrimPrefix(e.name, "U+")))
				prefix := "p" + e.last
				in := []string{prefix, prefix + "tail", prefix + e.last, e.past, e.past + "x", "p"}
				for _, k := range in {
					mustPut(ctx, t, s, k, []byte("x"))
				}
				want := []string{prefix, prefix + e.last, prefix + "tail"}
				slices.Sort(want)
				if got := mustList(ctx, t, s, prefix); !slices.Equal(got, want) {
					t.Fatalf("List(%q) = %q, want %q", prefix, got, want)
				}
			})
		}
	}},
	{"a prefix of only U+10FFFF runes has no upper bound", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		top := "\U0010ffff"
		for _, k := range []string{top, top + top, top + "a", "z"} {
			mustPut(ctx, t, s, k, []byte("x"))
		}
		want := []string{top, top + "a", top + top}
		slices.Sort(want)
		if got := mustList(ctx, t, s, top); !slices.Equal(got, want) {
			t.Fatalf("List(U+10FFFF) = %q, want %q", got, want)
		}
	}},
}
