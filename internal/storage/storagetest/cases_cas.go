package storagetest

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var casCases = []testCase{
	{"nil expected inserts an absent key", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		if err := s.CompareAndSwap(ctx, "k", nil, []byte("first")); err != nil {
			t.Fatalf("CAS(nil) on an absent key: %v", err)
		}
		if got := mustGet(ctx, t, s, "k"); string(got) != "first" {
			t.Fatalf("Get = %q, want first", got)
		}
	}},
	{"nil expected on a present key conflicts and keeps the value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v"))
		wantErr(t, "CAS(nil) on a present key", s.CompareAndSwap(ctx, "k", nil, []byte("w")), storage.ErrConflict)
		if got := mustGet(ctx, t, s, "k"); string(got) != "v" {
			t.Fatalf("Get = %q, want v", got)
		}
	}},
	{"nil expected conflicts with a present empty value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{})
		wantErr(t, "CAS(nil) on an empty value", s.CompareAndSwap(ctx, "k", nil, []byte("w")), storage.ErrConflict)
	}},
	{"matching expected swaps", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{0x00, 0xFF, 'v'})
		if err := s.CompareAndSwap(ctx, "k", []byte{0x00, 0xFF, 'v'}, []byte("w")); err != nil {
			t.Fatalf("CAS(match): %v", err)
		}
		if got := mustGet(ctx, t, s, "k"); string(got) != "w" {
			t.Fatalf("Get = %q, want w", got)
		}
	}},
	{"an empty expected matches an empty value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{})
		if err := s.CompareAndSwap(ctx, "k", []byte{}, []byte("w")); err != nil {
			t.Fatalf("CAS([]byte{}) on an empty value: %v", err)
		}
	}},
	{"stale expected conflicts and keeps the value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v2"))
		wantErr(t, "CAS(stale)", s.CompareAndSwap(ctx, "k", []byte("v1"), []byte("v3")), storage.ErrConflict)
		wantErr(t, "CAS(prefix of current)", s.CompareAndSwap(ctx, "k", []byte("v"), []byte("v3")), storage.ErrConflict)
		if got := mustGet(ctx, t, s, "k"); string(got) != "v2" {
			t.Fatalf("Get = %q, want v2", got)
		}
	}},
	{"non-nil expected on an absent key conflicts and stays absent", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		wantErr(t, "CAS(v) on an absent key", s.CompareAndSwap(ctx, "k", []byte("v"), []byte("w")), storage.ErrConflict)
		wantErr(t, "CAS([]byte{}) on an absent key", s.CompareAndSwap(ctx, "k", []byte{}, []byte("w")), storage.ErrConflict)
		wantAbsent(ctx, t, s, "k")
	}},
	{"a swapped-in empty value is present", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		if err := s.CompareAndSwap(ctx, "k", nil, nil); err != nil {
			t.Fatalf("CAS(nil, nil): %v", err)
		}
		if got := mustGet(ctx, t, s, "k"); got == nil || len(got) != 0 {
			t.Fatalf("Get = %#v, want empty", got)
		}
	}},
}
