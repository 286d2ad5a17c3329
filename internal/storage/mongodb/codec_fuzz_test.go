package mongodb

import (
	"bytes"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FuzzDocumentCodec: what the migrator writes it reads back unchanged, and
// a scanned document of any bytes decodes or fails cleanly.
func FuzzDocumentCodec(f *testing.F) {
	f.Add("game:-100", []byte(`{"answer":"crane"}`), int64(1764400000000000000), []byte{})
	f.Add("update:7", []byte{}, int64(0), []byte{5, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, key string, value []byte, updated int64, garbage []byte) {
		raw, err := bson.Marshal(document(key, value, updated))
		if err != nil {
			return // not a document the driver writes: nothing to read back
		}
		it, err := decodeItem("ns", raw)
		if err != nil || it.Key != key || !bytes.Equal(it.Value, value) || it.UpdatedAt != updated {
			t.Fatalf("round trip of %q = %+v, %v", key, it, err)
		}
		if bson.Raw(garbage).Validate() == nil {
			_, _ = decodeItem("ns", garbage)
		}
	})
}
