package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Wrap returns the KVStore of namespace, backed by b. Every argument is
// validated before b sees it, and every error comes back as an *OpError.
// An invalid namespace yields a store that fails every call with
// ErrInvalidModule, so a provider's For can simply return Wrap(module, ...).
func Wrap(namespace string, b Backend) KVStore {
	if err := ValidateModule(namespace); err != nil {
		return &store{ns: namespace, invalid: err}
	}
	return &store{ns: namespace, b: b}
}

type store struct {
	ns      string
	b       Backend
	invalid error // set when ns is not a valid module name
}

func (s *store) fail(op, key string, err error) error {
	return &OpError{Op: op, Namespace: s.ns, Key: key, Err: err}
}

// check runs the validation shared by every operation on a key.
func (s *store) check(op, key string) error {
	if s.invalid != nil {
		return s.fail(op, key, s.invalid)
	}
	if err := ValidateKey(key); err != nil {
		return s.fail(op, key, err)
	}
	return nil
}

func (s *store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.check("get", key); err != nil {
		return nil, err
	}
	v, err := s.b.Get(ctx, key)
	if err != nil {
		return nil, s.fail("get", key, err)
	}
	if v == nil {
		v = []byte{} // an empty value is present, never confused with absent
	}
	return v, nil
}

func (s *store) GetJSON(ctx context.Context, key string, dst any) error {
	v, err := s.Get(ctx, key)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return Damaged(s.ns, key, v, fmt.Errorf("decode JSON: %w", err))
	}
	return nil
}

func (s *store) Put(ctx context.Context, key string, val []byte) error {
	if err := s.check("put", key); err != nil {
		return err
	}
	if err := ValidateValue(val); err != nil {
		return s.fail("put", key, err)
	}
	if err := s.b.Put(ctx, key, nonNil(val)); err != nil {
		return s.fail("put", key, err)
	}
	return nil
}

func (s *store) PutJSON(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return s.fail("put", key, fmt.Errorf("encode JSON: %w", err))
	}
	return s.Put(ctx, key, data)
}

func (s *store) Delete(ctx context.Context, key string) error {
	if err := s.check("delete", key); err != nil {
		return err
	}
	if err := s.b.Delete(ctx, key); err != nil && !errors.Is(err, ErrNotFound) {
		return s.fail("delete", key, err)
	}
	return nil
}

func (s *store) List(ctx context.Context, prefix string) ([]string, error) {
	if s.invalid != nil {
		return nil, s.fail("list", prefix, s.invalid)
	}
	if err := ValidatePrefix(prefix); err != nil {
		return nil, s.fail("list", prefix, err)
	}
	keys, err := s.b.List(ctx, prefix)
	if err != nil {
		return nil, s.fail("list", prefix, err)
	}
	if keys == nil {
		keys = []string{}
	}
	return keys, nil
}

func (s *store) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	if err := s.check("cas", key); err != nil {
		return err
	}
	if err := ValidateValue(val); err != nil {
		return s.fail("cas", key, err)
	}
	// A value above the limit can never be stored, so it can never match.
	if len(expected) > MaxValueBytes {
		return s.fail("cas", key, ErrConflict)
	}
	if err := s.b.CompareAndSwap(ctx, key, expected, nonNil(val)); err != nil {
		return s.fail("cas", key, err)
	}
	return nil
}

func (s *store) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	if err := s.check("cad", key); err != nil {
		return err
	}
	if expected == nil {
		return s.fail("cad", key, fmt.Errorf("%w: nil expected value (use []byte{} for an empty one)", ErrInvalidArgument))
	}
	// A value above the limit can never be stored, so it can never match.
	if len(expected) > MaxValueBytes {
		return s.fail("cad", key, ErrConflict)
	}
	if err := s.b.CompareAndDelete(ctx, key, expected); err != nil {
		return s.fail("cad", key, err)
	}
	return nil
}

// nonNil makes an empty value explicit for backends that treat nil as "absent".
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
