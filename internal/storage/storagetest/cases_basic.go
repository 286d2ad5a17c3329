package storagetest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var roundTripCases = []testCase{
	{"put then get returns the value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v1"))
		if got := mustGet(ctx, t, s, "k"); string(got) != "v1" {
			t.Fatalf("Get = %q, want v1", got)
		}
	}},
	{"put overwrites", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v1"))
		mustPut(ctx, t, s, "k", []byte("v2"))
		if got := mustGet(ctx, t, s, "k"); string(got) != "v2" {
			t.Fatalf("Get = %q, want v2", got)
		}
	}},
	{"get of an absent key is ErrNotFound", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		wantAbsent(ctx, t, p.For("mod"), "missing")
	}},
	{"delete removes the key", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v"))
		if err := s.Delete(ctx, "k"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		wantAbsent(ctx, t, s, "k")
		if keys := mustList(ctx, t, s, ""); len(keys) != 0 {
			t.Fatalf("List after delete = %q, want none", keys)
		}
	}},
	{"deleting an absent key is not an error", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		if err := p.For("mod").Delete(ctx, "never-written"); err != nil {
			t.Fatalf("Delete(absent) = %v, want nil", err)
		}
	}},
	{"returned bytes do not alias the store", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		in := []byte("abc")
		mustPut(ctx, t, s, "k", in)
		in[0] = 'X'
		out := mustGet(ctx, t, s, "k")
		out[1] = 'Y'
		if got := mustGet(ctx, t, s, "k"); string(got) != "abc" {
			t.Fatalf("stored value changed through a caller's slice: %q", got)
		}
	}},
}

var valueCases = []testCase{
	{"binary values round-trip exactly", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		all := make([]byte, 512)
		for i := range all {
			all[i] = byte(i) // every byte value, including NUL and invalid UTF-8
		}
		mustPut(ctx, t, s, "bin", all)
		if got := mustGet(ctx, t, s, "bin"); !bytes.Equal(got, all) {
			t.Fatalf("binary value changed in a round trip")
		}
	}},
	{"an empty value is present, not absent", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "empty", []byte{})
		mustPut(ctx, t, s, "nil", nil)
		for _, k := range []string{"empty", "nil"} {
			got := mustGet(ctx, t, s, k)
			if got == nil || len(got) != 0 {
				t.Fatalf("Get(%q) = %#v, want a non-nil empty slice", k, got)
			}
		}
		if keys := mustList(ctx, t, s, ""); strings.Join(keys, ",") != "empty,nil" {
			t.Fatalf("List = %q, want both empty-valued keys", keys)
		}
	}},
	{"a value of exactly the maximum size round-trips", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		big := bytes.Repeat([]byte{0xFE, 0x01, 0x00}, storage.MaxValueBytes/3)
		if len(big) != storage.MaxValueBytes {
			t.Fatalf("test value is %d bytes", len(big))
		}
		mustPut(ctx, t, s, "big", big)
		if got := mustGet(ctx, t, s, "big"); !bytes.Equal(got, big) {
			t.Fatalf("maximum-size value changed in a round trip (len %d)", len(got))
		}
		if err := s.CompareAndSwap(ctx, "big", big, []byte("small")); err != nil {
			t.Fatalf("CAS expecting the maximum-size value: %v", err)
		}
	}},
	{"one byte over the maximum is ErrValueTooLarge and writes nothing", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		over := make([]byte, storage.MaxValueBytes+1)
		wantErr(t, "Put(over limit)", s.Put(ctx, "new", over), storage.ErrValueTooLarge)
		wantErr(t, "CAS(nil, over limit)", s.CompareAndSwap(ctx, "new", nil, over), storage.ErrValueTooLarge)
		wantAbsent(ctx, t, s, "new")

		mustPut(ctx, t, s, "old", []byte("keep"))
		wantErr(t, "Put(over limit) on an existing key", s.Put(ctx, "old", over), storage.ErrValueTooLarge)
		wantErr(t, "CAS(match, over limit)", s.CompareAndSwap(ctx, "old", []byte("keep"), over), storage.ErrValueTooLarge)
		if got := mustGet(ctx, t, s, "old"); string(got) != "keep" {
			t.Fatalf("existing value changed to %d bytes", len(got))
		}
	}},
}

var jsonCases = []testCase{
	{"PutJSON then GetJSON round-trips a struct", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		type doc struct {
			Name  string   `json:"name"`
			Count int64    `json:"count"`
			Tags  []string `json:"tags"`
		}
		s := p.For("mod")
		in := doc{Name: "Kai'Sa ✓", Count: 1 << 40, Tags: []string{"a", "b"}}
		if err := s.PutJSON(ctx, "doc", in); err != nil {
			t.Fatalf("PutJSON: %v", err)
		}
		var out doc
		if err := s.GetJSON(ctx, "doc", &out); err != nil {
			t.Fatalf("GetJSON: %v", err)
		}
		if out.Name != in.Name || out.Count != in.Count || strings.Join(out.Tags, ",") != "a,b" {
			t.Fatalf("GetJSON = %+v, want %+v", out, in)
		}
	}},
	{"GetJSON of an absent key is ErrNotFound", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		var v map[string]any
		wantErr(t, "GetJSON(absent)", p.For("mod").GetJSON(ctx, "missing", &v), storage.ErrNotFound)
	}},
	{"GetJSON of a non-JSON value is a decode error, not ErrNotFound", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "raw", []byte{0xFF, 0x00})
		var v map[string]any
		err := s.GetJSON(ctx, "raw", &v)
		if err == nil || errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("GetJSON(non-JSON) = %v, want a decode error", err)
		}
	}},
	{"PutJSON of an unencodable value fails and writes nothing", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		if err := s.PutJSON(ctx, "bad", map[string]any{"ch": make(chan int)}); err == nil {
			t.Fatalf("PutJSON(chan) succeeded")
		}
		wantAbsent(ctx, t, s, "bad")
	}},
}

var isolationCases = []testCase{
	{"the same key in two modules holds two values", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		a, b := p.For("alpha"), p.For("beta")
		mustPut(ctx, t, a, "shared", []byte("from-a"))
		mustPut(ctx, t, b, "shared", []byte("from-b"))
		if got := mustGet(ctx, t, a, "shared"); string(got) != "from-a" {
			t.Fatalf("alpha sees %q", got)
		}
		if got := mustGet(ctx, t, b, "shared"); string(got) != "from-b" {
			t.Fatalf("beta sees %q", got)
		}
	}},
	{"list, delete and CAS stay inside their module", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		a, b := p.For("alpha"), p.For("beta")
		mustPut(ctx, t, a, "only-a", []byte("1"))
		mustPut(ctx, t, b, "k", []byte("b"))
		if keys := mustList(ctx, t, b, ""); strings.Join(keys, ",") != "k" {
			t.Fatalf("beta lists %q", keys)
		}
		if err := a.Delete(ctx, "k"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if got := mustGet(ctx, t, b, "k"); string(got) != "b" {
			t.Fatalf("delete in alpha removed beta's key")
		}
		if err := a.CompareAndSwap(ctx, "k", nil, []byte("a")); err != nil {
			t.Fatalf("CAS insert into alpha while beta holds the key: %v", err)
		}
		wantErr(t, "CAS in beta expecting alpha's value", b.CompareAndSwap(ctx, "k", []byte("a"), []byte("x")), storage.ErrConflict)
	}},
}
