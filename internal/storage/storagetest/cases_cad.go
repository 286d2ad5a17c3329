package storagetest

import (
	"context"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var cadCases = []testCase{
	{"a matching value is deleted, then reads ErrNotFound and is no longer listed", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{0x00, 0xFF, 'v'})
		mustPut(ctx, t, s, "k2", []byte("other"))
		if err := s.CompareAndDelete(ctx, "k", []byte{0x00, 0xFF, 'v'}); err != nil {
			t.Fatalf("CompareAndDelete(match): %v", err)
		}
		wantAbsent(ctx, t, s, "k")
		if keys := mustList(ctx, t, s, ""); strings.Join(keys, ",") != "k2" {
			t.Fatalf("List after CompareAndDelete = %q, want only k2", keys)
		}
		if got := mustGet(ctx, t, s, "k2"); string(got) != "other" {
			t.Fatalf("the sibling key changed to %q", got)
		}
	}},
	{"an empty expected deletes an empty value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{})
		if err := s.CompareAndDelete(ctx, "k", []byte{}); err != nil {
			t.Fatalf("CompareAndDelete([]byte{}) on an empty value: %v", err)
		}
		wantAbsent(ctx, t, s, "k")
	}},
	{"a different value conflicts and keeps the key", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v2"))
		for _, expected := range []string{"v1", "v", "v22", ""} {
			wantErr(t, "CompareAndDelete("+expected+")", s.CompareAndDelete(ctx, "k", []byte(expected)), storage.ErrConflict)
		}
		if got := mustGet(ctx, t, s, "k"); string(got) != "v2" {
			t.Fatalf("Get = %q, want v2", got)
		}
	}},
	{"an absent key conflicts and stays absent", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		wantErr(t, "CompareAndDelete(v) on an absent key", s.CompareAndDelete(ctx, "k", []byte("v")), storage.ErrConflict)
		wantErr(t, "CompareAndDelete([]byte{}) on an absent key", s.CompareAndDelete(ctx, "k", []byte{}), storage.ErrConflict)
		wantAbsent(ctx, t, s, "k")
	}},
	{"a value changed by a Put after it was read conflicts and keeps the new value", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("armed"))
		read := mustGet(ctx, t, s, "k")
		mustPut(ctx, t, s, "k", []byte("rearmed"))
		wantErr(t, "CompareAndDelete(the value read before the Put)", s.CompareAndDelete(ctx, "k", read), storage.ErrConflict)
		if got := mustGet(ctx, t, s, "k"); string(got) != "rearmed" {
			t.Fatalf("Get = %q, want rearmed", got)
		}
	}},
	{"a second conditional delete of the same value conflicts", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v"))
		if err := s.CompareAndDelete(ctx, "k", []byte("v")); err != nil {
			t.Fatalf("first CompareAndDelete: %v", err)
		}
		wantErr(t, "second CompareAndDelete", s.CompareAndDelete(ctx, "k", []byte("v")), storage.ErrConflict)
	}},
	{"nil expected is ErrInvalidArgument and deletes nothing", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte{})
		wantErr(t, "CompareAndDelete(nil)", s.CompareAndDelete(ctx, "k", nil), storage.ErrInvalidArgument)
		if got := mustGet(ctx, t, s, "k"); len(got) != 0 {
			t.Fatalf("Get = %q, want the empty value kept", got)
		}
	}},
	{"an expected value over the maximum conflicts", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		mustPut(ctx, t, s, "k", []byte("v"))
		over := make([]byte, storage.MaxValueBytes+1)
		wantErr(t, "CompareAndDelete(over limit)", s.CompareAndDelete(ctx, "k", over), storage.ErrConflict)
		mustGet(ctx, t, s, "k")
	}},
	{"a conditional delete stays inside its module", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		a, b := p.For("alpha"), p.For("beta")
		mustPut(ctx, t, b, "k", []byte("v"))
		wantErr(t, "CompareAndDelete in alpha of beta's key", a.CompareAndDelete(ctx, "k", []byte("v")), storage.ErrConflict)
		if got := mustGet(ctx, t, b, "k"); string(got) != "v" {
			t.Fatalf("beta's key changed to %q", got)
		}
	}},
}
