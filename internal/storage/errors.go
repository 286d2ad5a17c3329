package storage

import (
	"errors"
	"fmt"
)

// The contract's errors; test them with errors.Is.
var (
	ErrNotFound      = errors.New("not found")
	ErrConflict      = errors.New("compare-and-swap conflict")
	ErrInvalidKey    = errors.New("invalid key")
	ErrInvalidModule = errors.New("invalid module name")
	ErrValueTooLarge = errors.New("value too large")
	// ErrInvalidArgument: an argument no call can accept, such as a nil
	// expected value for CompareAndDelete; a bug in the caller.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrUnreadable: a stored value does not decode (a flipped byte, a
	// shape no code writes; a DamagedError names it). Retrying cannot
	// help: the engine reports the item once, tells the user it cannot be
	// read, and a job skips it (docs/delivery.md).
	ErrUnreadable = errors.New("stored value cannot be read")
)

// OpError records the operation, namespace and key of a failed call. Its
// message never includes connection details: backends must not put a
// connection string into the errors they return.
type OpError struct {
	Op        string
	Namespace string
	Key       string
	Err       error
}

func (e *OpError) Error() string {
	return fmt.Sprintf("storage: %s %s/%s: %v", e.Op, e.Namespace, quoteKey(e.Key), e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

// quoteKey keeps error messages readable when a key is long or binary-looking.
func quoteKey(k string) string {
	const max = 64
	if len(k) > max {
		// Cut on a rune boundary so %q does not print a broken sequence.
		cut := max
		for cut > 0 && !isRuneStart(k[cut]) {
			cut--
		}
		return fmt.Sprintf("%q...(%d bytes)", k[:cut], len(k))
	}
	return fmt.Sprintf("%q", k)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
