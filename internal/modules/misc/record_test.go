package misc

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// The record's bytes are json.Marshal's, so /mstats (and any reader of a
// record written before) decodes them alike.
func TestARecordIsEncodedAsJSONMarshalEncodesIt(t *testing.T) {
	for _, rec := range []lastPing{
		{At: time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC), ChatID: -1001234567890, UserID: 3},
		{At: time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC), ChatID: 42, UserID: 42},
		{At: time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.UTC)},
		{At: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), ChatID: -9223372036854775808, UserID: 9223372036854775807},
		{At: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	} {
		want, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.encode(); !bytes.Equal(got, want) {
			t.Errorf("encode(%v) = %s, json.Marshal = %s", rec, got, want)
		}
	}
}
