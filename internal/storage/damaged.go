package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// DamagedError is a stored value that does not decode (a flipped byte, a
// shape no code writes): permanent, so it is ErrUnreadable. It names the
// item and fingerprints its bytes, never quoting them: the engine reports
// it once and tells a repair (the value deleted or rewritten) by the
// fingerprint changing. Namespace is empty when the decoder was not told
// it (UpdateJSON); the engine then names the module whose run read it.
type DamagedError struct {
	Namespace string
	Key       string
	Sum       string // Fingerprint of the damaged bytes
	Err       error  // the decoder's complaint
}

// Damaged is the DamagedError of value, stored at namespace/key, that the
// decoder refused with err.
func Damaged(namespace, key string, value []byte, err error) *DamagedError {
	return &DamagedError{Namespace: namespace, Key: key, Sum: Fingerprint(value), Err: err}
}

// Fingerprint names a value's bytes without showing them.
func Fingerprint(value []byte) string {
	sum := sha256.Sum256(value)
	return hex.EncodeToString(sum[:8])
}

func (e *DamagedError) Error() string {
	item := quoteKey(e.Key)
	if e.Namespace != "" {
		item = e.Namespace + "/" + item
	}
	return fmt.Sprintf("storage: %s: %v: %v", item, ErrUnreadable, e.Err)
}

// Is makes every DamagedError an ErrUnreadable.
func (e *DamagedError) Is(target error) bool { return target == ErrUnreadable }

func (e *DamagedError) Unwrap() error { return e.Err }

// DamagedItems is every DamagedError in err's tree (a job joins one per
// item it could not read), in order.
func DamagedItems(err error) []*DamagedError {
	var out []*DamagedError
	var walk func(error)
	walk = func(err error) {
		switch x := err.(type) {
		case nil:
		case *DamagedError:
			out = append(out, x)
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return out
}

// OnlyDamage reports whether every failure in err's tree is a value that
// cannot be read: a run that did all else it could, and would fail the
// same way again.
func OnlyDamage(err error) bool {
	switch x := err.(type) {
	case nil:
		return false
	case *DamagedError:
		return true
	case interface{ Unwrap() []error }:
		kids := x.Unwrap()
		for _, e := range kids {
			if e == ErrUnreadable { // "%w: ...": the whole says what it is
				return true
			}
		}
		for _, e := range kids {
			if !OnlyDamage(e) {
				return false
			}
		}
		return len(kids) > 0
	case interface{ Unwrap() error }:
		return OnlyDamage(x.Unwrap())
	}
	return err == ErrUnreadable
}
