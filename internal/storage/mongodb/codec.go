package mongodb

import (
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// errBadDocument marks a stored document this backend cannot read.
var errBadDocument = errors.New("malformed document")

// document is the one encoding of an item, shared by Put, CAS and the
// migrator, so data written by any of them is read back identically. It is
// built as BSON directly: the driver copies it into the wire message as it
// is, where a bson.D would be marshalled there after boxing each field (a
// bulk load of thousands of items feels that in its heap).
func document(key string, val []byte, updatedAt int64) bson.Raw {
	return bson.Raw(bsoncore.NewDocumentBuilder().
		AppendString("_id", key).
		AppendBinary(fieldValue, byte(bson.TypeBinaryGeneric), val).
		AppendInt64(fieldUpdatedAt, updatedAt).
		Build())
}

func itemDocument(it storage.Item) bson.Raw { return document(it.Key, it.Value, it.UpdatedAt) }

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
