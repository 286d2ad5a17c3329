package dynamodb_test

import (
	"bytes"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/storage"
	ddb "github.com/miti99bot/miti99bot/internal/storage/dynamodb"
)

// FuzzItemCodec: what the migrator writes, it reads back unchanged, and a
// scanned item of any shape decodes or fails cleanly.
func FuzzItemCodec(f *testing.F) {
	f.Add("wordle", "game:-100", []byte(`{"answer":"crane"}`), int64(1764400000000000000), "S")
	f.Add("core", "update:7", []byte{}, int64(0), "N")
	f.Fuzz(func(t *testing.T, ns, key string, value []byte, updated int64, valueKind string) {
		it := storage.Item{Namespace: ns, Key: key, Value: value, UpdatedAt: updated}
		back, err := ddb.Decode(ddb.Encode(it))
		if err != nil || back.Namespace != ns || back.Key != key || !bytes.Equal(back.Value, value) || back.UpdatedAt != updated {
			t.Fatalf("round trip of %+v = %+v, %v", it, back, err)
		}
		raw := ddb.Encode(it)
		switch valueKind { // an item some other writer left
		case "S":
			raw["value"] = &types.AttributeValueMemberS{Value: string(value)}
		case "N":
			raw["updatedAt"] = &types.AttributeValueMemberN{Value: string(value)}
		default:
			delete(raw, "value")
		}
		_, _ = ddb.Decode(raw)
	})
}
