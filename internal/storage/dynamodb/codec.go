package dynamodb

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// errBadItem marks a stored item this backend cannot read.
var errBadItem = errors.New("malformed item")

// encode is the one encoding of an entry, shared by Put, CAS and the
// migrator, so data written by any of them reads back identically.
func encode(pk, sk string, val []byte, updatedAt int64) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		attrPK:        &types.AttributeValueMemberS{Value: pk},
		attrSK:        &types.AttributeValueMemberS{Value: sk},
		attrValue:     &types.AttributeValueMemberB{Value: val},
		attrUpdatedAt: &types.AttributeValueMemberN{Value: strconv.FormatInt(updatedAt, 10)},
	}
}

// Encode returns the stored form of an item, for the migrator's batch writes.
func Encode(it storage.Item) map[string]types.AttributeValue {
	return encode(it.Namespace, it.Key, it.Value, it.UpdatedAt)
}

func keyOf(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		attrPK: &types.AttributeValueMemberS{Value: pk},
		attrSK: &types.AttributeValueMemberS{Value: sk},
	}
}

// decodeValue reads the value attribute: B as written today, or S as the old
// backend stored it. Anything else, or no value at all, is an error.
func decodeValue(item map[string]types.AttributeValue) ([]byte, error) {
	switch v := item[attrValue].(type) {
	case *types.AttributeValueMemberB:
		return append([]byte{}, v.Value...), nil
	case *types.AttributeValueMemberS:
		return []byte(v.Value), nil
	case nil:
		return nil, fmt.Errorf("%w: no %q attribute", errBadItem, attrValue)
	default:
		return nil, fmt.Errorf("%w: %q is %T, want B or S", errBadItem, attrValue, v)
	}
}

// Decode reads a whole stored item, for the migrator's scans.
func Decode(raw map[string]types.AttributeValue) (storage.Item, error) { return decodeItem(raw) }

func decodeItem(raw map[string]types.AttributeValue) (storage.Item, error) {
	pk, ok1 := raw[attrPK].(*types.AttributeValueMemberS)
	sk, ok2 := raw[attrSK].(*types.AttributeValueMemberS)
	if !ok1 || !ok2 {
		return storage.Item{}, fmt.Errorf("dynamodb: %w: pk and sk must be strings", errBadItem)
	}
	val, err := decodeValue(raw)
	if err != nil {
		return storage.Item{}, fmt.Errorf("dynamodb: %s/%q: %w", pk.Value, sk.Value, err)
	}
	var updated int64
	if n, ok := raw[attrUpdatedAt].(*types.AttributeValueMemberN); ok {
		if updated, err = strconv.ParseInt(n.Value, 10, 64); err != nil {
			return storage.Item{}, fmt.Errorf("dynamodb: %s/%q: %w: updatedAt %q", pk.Value, sk.Value, errBadItem, n.Value)
		}
	}
	return storage.Item{Namespace: pk.Value, Key: sk.Value, Value: val, UpdatedAt: updated}, nil
}
