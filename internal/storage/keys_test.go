package storage_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/storage"
)

func TestPrefixSuccessor(t *testing.T) {
	tests := []struct {
		name, prefix, want string
		ok                 bool
	}{
		{"empty prefix has no bound", "", "", false},
		{"ASCII increments the last byte", "user:", "user;", true},
		{"U+007F steps to a two-byte rune", "a\u007f", "a\u0080", true},
		{"U+00FF stays two bytes", "a\u00ff", "a\u0100", true},
		{"U+07FF steps to a three-byte rune", "a\u07ff", "a\u0800", true},
		{"U+D7FF skips the surrogates", "a\ud7ff", "a\ue000", true},
		{"U+FFFF steps to a four-byte rune", "a\uffff", "a\U00010000", true},
		{"a trailing U+10FFFF carries into the rune before", "a\U0010ffff", "b", true},
		{"only U+10FFFF has no bound", "\U0010ffff\U0010ffff", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := storage.PrefixSuccessor(tt.prefix)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("PrefixSuccessor(%q) = %q, %v; want %q, %v", tt.prefix, got, ok, tt.want, tt.ok)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("successor %q is not valid UTF-8", got)
			}
		})
	}
}

func FuzzPrefixSuccessor(f *testing.F) {
	for _, s := range []string{"a", "a\u007f", "\U0010ffff", "x\ud7ff"} {
		f.Add(s, "tail")
	}
	f.Fuzz(func(t *testing.T, prefix, tail string) {
		if !utf8.ValidString(prefix) || !utf8.ValidString(tail) {
			return // keys are valid UTF-8; ValidateKey rejects the rest
		}
		succ, ok := storage.PrefixSuccessor(prefix)
		if !ok {
			return
		}
		if !utf8.ValidString(succ) {
			t.Fatalf("successor of %q is invalid UTF-8", prefix)
		}
		// Every string with the prefix lies in [prefix, succ).
		if k := prefix + tail; k < prefix || k >= succ {
			t.Fatalf("%q is outside [%q, %q)", k, prefix, succ)
		}
	})
}

func TestValidateModule(t *testing.T) {
	for _, ok := range []string{"a", "misc", "lol-schedule", "x_1", strings.Repeat("a", 32)} {
		if err := storage.ValidateModule(ok); err != nil {
			t.Errorf("ValidateModule(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "A", "a.b", strings.Repeat("a", 33), "a/b"} {
		if err := storage.ValidateModule(bad); !errors.Is(err, storage.ErrInvalidModule) {
			t.Errorf("ValidateModule(%q) = %v, want ErrInvalidModule", bad, err)
		}
	}
}

func TestOpErrorTruncatesLongKeys(t *testing.T) {
	err := &storage.OpError{Op: "get", Namespace: "m", Key: strings.Repeat("é", 600), Err: storage.ErrNotFound}
	msg := err.Error()
	if len(msg) > 200 || !strings.Contains(msg, "1200 bytes") || !utf8.ValidString(msg) {
		t.Fatalf("message %q should be short, valid UTF-8 and give the key's length", msg)
	}
	if !errors.Is(err, storage.ErrNotFound) {
		t.Fatal("OpError must unwrap to its cause")
	}
}
