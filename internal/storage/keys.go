package storage

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits shared by every backend. DynamoDB bounds them: a sort key holds at
// most 1024 bytes and an item at most 400 KB, so one limit for all backends
// keeps every item movable between them.
const (
	MaxKeyBytes   = 1024
	MaxValueBytes = 384 << 10 // 393,216 bytes
)

// ModuleNamePattern is the rule for a namespace (module) name.
const ModuleNamePattern = `^[a-z0-9_-]{1,32}$`

// ValidateModule reports whether name can be a namespace: ModuleNamePattern,
// checked by a loop (it runs for every module at every start).
func ValidateModule(name string) error {
	ok := name != "" && len(name) <= 32
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
	}
	if !ok {
		return fmt.Errorf("%w: %q must match %s", ErrInvalidModule, name, ModuleNamePattern)
	}
	return nil
}

// ValidateKey applies the key rules: non-empty valid UTF-8 without NUL, at most
// MaxKeyBytes, no "/", not "." or "..", and not both starting and ending with "__".
func ValidateKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	return validateKeyText(key)
}

// ValidatePrefix applies the key rules to a List prefix, which may be "".
func ValidatePrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	return validateKeyText(prefix)
}

func validateKeyText(s string) error {
	switch {
	case len(s) > MaxKeyBytes:
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrInvalidKey, len(s), MaxKeyBytes)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidKey)
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("%w: contains NUL", ErrInvalidKey)
	case strings.IndexByte(s, '/') >= 0:
		return fmt.Errorf("%w: contains '/'", ErrInvalidKey)
	case s == "." || s == "..":
		return fmt.Errorf("%w: %q is reserved", ErrInvalidKey, s)
	case len(s) >= 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__"):
		return fmt.Errorf("%w: names wrapped in \"__\" are reserved", ErrInvalidKey)
	}
	return nil
}

// ValidateValue rejects values over MaxValueBytes.
func ValidateValue(val []byte) error {
	if len(val) > MaxValueBytes {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrValueTooLarge, len(val), MaxValueBytes)
	}
	return nil
}

// PrefixSuccessor returns the smallest string greater than every string that
// starts with prefix, for range queries [prefix, successor). The result is
// itself valid UTF-8 (backends reject anything else): the last rune is
// incremented in code-point order, which UTF-8 byte order follows, skipping the
// surrogate range; a trailing U+10FFFF is dropped and the rune before it
// incremented instead. ok is false when no upper bound exists ("" or all
// U+10FFFF).
func PrefixSuccessor(prefix string) (succ string, ok bool) {
	for prefix != "" {
		r, size := utf8.DecodeLastRuneInString(prefix)
		prefix = prefix[:len(prefix)-size]
		if r == utf8.MaxRune {
			continue
		}
		next := r + 1
		if next == 0xD800 { // surrogates are not valid in UTF-8
			next = 0xE000
		}
		return prefix + string(next), true
	}
	return "", false
}

// CoreNamespace is the engine's own namespace (update claims, cron slot
// claims, the polling lease, the inbox, migration checkpoints); no module
// may take its name. It is here so that every part that reads the engine's
// state (backups, the migrator, botctl) names it without importing the
// engine.
const CoreNamespace = "core"

// InboxPrefix starts the keys, in CoreNamespace, of the updates the poller
// parked: confirmed to Telegram, not yet handled. The migrator and backups
// count them by it.
const InboxPrefix = "inbox:"
