package storagetest

import (
	"context"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// invalidKeys break one key rule each.
var invalidKeys = []struct{ name, key string }{
	{"empty", ""},
	{"over 1024 bytes", strings.Repeat("k", storage.MaxKeyBytes+1)},
	{"over 1024 bytes in multi-byte runes", strings.Repeat("é", storage.MaxKeyBytes/2+1)},
	{"invalid UTF-8", "bad\xff"},
	{"a lone continuation byte", "\x80"},
	{"NUL", "a\x00b"},
	{"slash", "a/b"},
	{"only a slash", "/"},
	{"dot", "."},
	{"dot dot", ".."},
	{"wrapped in double underscores", "__name__"},
	{"four underscores", "____"},
}

// validEdgeKeys sit just inside the rules and must round-trip.
var validEdgeKeys = []struct{ name, key string }{
	{"exactly 1024 bytes", strings.Repeat("k", storage.MaxKeyBytes)},
	{"exactly 1024 bytes of 4-byte runes", strings.Repeat("😀", storage.MaxKeyBytes/4)},
	{"three dots", "..."},
	{"leading dot", ".hidden"},
	{"leading double underscore only", "__prefix"},
	{"trailing double underscore only", "suffix__"},
	{"three underscores", "___"},
	{"backslash and spaces", `a\b c`},
	{"emoji and CJK", "😀日本"},
	{"U+10FFFF", "\U0010ffff"},
}

var keyRuleCases = []testCase{
	{"every operation rejects every invalid key and writes nothing", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		for _, k := range invalidKeys {
			t.Run(k.name, func(t *testing.T) {
				_, err := s.Get(ctx, k.key)
				wantErr(t, "Get", err, storage.ErrInvalidKey)
				var v any
				wantErr(t, "GetJSON", s.GetJSON(ctx, k.key, &v), storage.ErrInvalidKey)
				wantErr(t, "Put", s.Put(ctx, k.key, []byte("v")), storage.ErrInvalidKey)
				wantErr(t, "PutJSON", s.PutJSON(ctx, k.key, 1), storage.ErrInvalidKey)
				wantErr(t, "Delete", s.Delete(ctx, k.key), storage.ErrInvalidKey)
				wantErr(t, "CAS(nil)", s.CompareAndSwap(ctx, k.key, nil, []byte("v")), storage.ErrInvalidKey)
				wantErr(t, "CAS(v)", s.CompareAndSwap(ctx, k.key, []byte("v"), []byte("w")), storage.ErrInvalidKey)
				wantErr(t, "CompareAndDelete", s.CompareAndDelete(ctx, k.key, []byte("v")), storage.ErrInvalidKey)
				if k.key != "" { // "" is the one valid prefix
					_, err = s.List(ctx, k.key)
					wantErr(t, "List", err, storage.ErrInvalidKey)
				}
			})
		}
		wantEmptyProvider(ctx, t, p)
	}},
	{"keys at the edge of the rules round-trip", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		s := p.For("mod")
		for _, k := range validEdgeKeys {
			t.Run(k.name, func(t *testing.T) {
				mustPut(ctx, t, s, k.key, []byte(k.name))
				if got := mustGet(ctx, t, s, k.key); string(got) != k.name {
					t.Fatalf("Get = %q", got)
				}
				keys := mustList(ctx, t, s, k.key)
				if len(keys) == 0 || keys[0] != k.key {
					t.Fatalf("List(key as prefix) = %q", keys)
				}
			})
		}
	}},
	{"errors name the operation and key", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		_, err := p.For("mod").Get(ctx, "absent-key")
		if err == nil || !strings.Contains(err.Error(), "get") || !strings.Contains(err.Error(), "absent-key") {
			t.Fatalf("error %q should name the operation and key", err)
		}
	}},
}

var invalidModules = []struct{ name, module string }{
	{"empty", ""},
	{"upper case", "Mod"},
	{"33 characters", strings.Repeat("m", 33)},
	{"slash", "a/b"},
	{"dot", "a.b"},
	{"space", "a b"},
	{"dollar", "$cmd"},
	{"non-ASCII", "módulo"},
}

var moduleRuleCases = []testCase{
	{"an invalid module name fails every call and writes nothing", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		for _, m := range invalidModules {
			t.Run(m.name, func(t *testing.T) {
				s := p.For(m.module)
				_, err := s.Get(ctx, "k")
				wantErr(t, "Get", err, storage.ErrInvalidModule)
				var v any
				wantErr(t, "GetJSON", s.GetJSON(ctx, "k", &v), storage.ErrInvalidModule)
				wantErr(t, "Put", s.Put(ctx, "k", []byte("v")), storage.ErrInvalidModule)
				wantErr(t, "PutJSON", s.PutJSON(ctx, "k", 1), storage.ErrInvalidModule)
				wantErr(t, "Delete", s.Delete(ctx, "k"), storage.ErrInvalidModule)
				_, err = s.List(ctx, "")
				wantErr(t, "List", err, storage.ErrInvalidModule)
				wantErr(t, "CAS", s.CompareAndSwap(ctx, "k", nil, []byte("v")), storage.ErrInvalidModule)
				wantErr(t, "CompareAndDelete", s.CompareAndDelete(ctx, "k", []byte("v")), storage.ErrInvalidModule)
			})
		}
		wantEmptyProvider(ctx, t, p)
	}},
	{"module names at the edge of the rules work", func(ctx context.Context, t *testing.T, p storage.KVProvider) {
		for _, m := range []string{strings.Repeat("m", 32), "a", "0", "with-dash_and_9"} {
			mustPut(ctx, t, p.For(m), "k", []byte(m))
			if got := mustGet(ctx, t, p.For(m), "k"); string(got) != m {
				t.Fatalf("module %q: Get = %q", m, got)
			}
		}
	}},
}
