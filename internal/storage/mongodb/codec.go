package mongodb

import (
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// errBadDocument marks a stored document this backend cannot read.
var errBadDocument = errors.New("malformed document")

// document is the one encoding of an item, shared by Put, CAS and the
// migrator, so data written by any of them is read back identically.
func document(key string, val []byte, updatedAt int64) bson.D {
	return bson.D{
		{Key: "_id", Value: key},
		{Key: fieldValue, Value: bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: val}},
		{Key: fieldUpdatedAt, Value: updatedAt},
	}
}

// Document returns the stored form of an item, for the migrator's bulk writes.
func Document(it storage.Item) bson.D { return document(it.Key, it.Value, it.UpdatedAt) }

// decodeValue reads the value field: binary as written today, or a string as
// older writers stored it. Anything else, or no value at all, is an error.
func decodeValue(raw bson.Raw) ([]byte, error) {
	rv, err := raw.LookupErr(fieldValue)
	if err != nil {
		return nil, fmt.Errorf("%w: no %q field", errBadDocument, fieldValue)
	}
	if _, data, ok := rv.BinaryOK(); ok {
		return append([]byte{}, data...), nil
	}
	if s, ok := rv.StringValueOK(); ok {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("%w: %q is BSON %s, want binary or string", errBadDocument, fieldValue, rv.Type)
}

func decodeItem(namespace string, raw bson.Raw) (storage.Item, error) {
	key, ok := raw.Lookup("_id").StringValueOK()
	if !ok {
		return storage.Item{}, fmt.Errorf("mongodb: %s: %w: _id is not a string", namespace, errBadDocument)
	}
	val, err := decodeValue(raw)
	if err != nil {
		return storage.Item{}, fmt.Errorf("mongodb: %s/%q: %w", namespace, key, err)
	}
	var updated int64
	if rv, err := raw.LookupErr(fieldUpdatedAt); err == nil {
		if n, ok := rv.AsInt64OK(); ok {
			updated = n
		} else if ms, ok := rv.DateTimeOK(); ok {
			updated = ms * 1e6 // tolerate a BSON date from an older writer
		}
	}
	return storage.Item{Namespace: namespace, Key: key, Value: val, UpdatedAt: updated}, nil
}
