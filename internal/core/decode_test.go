package core_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestDecodeUpdate(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantID  int64 // 0: no update at all
		wantErr bool
	}{
		{"a recorded update decodes", string(telegramtest.Recorded(t, "update_group_text.json")), 900001, false},
		{"one the decoder rejects keeps its id", string(telegramtest.Recorded(t, "update_forward_unknown_origin.json")), 900002, true},
		{"a body without an update_id is no update", `{"message":{"text":"x"}`, 0, true},
		{"a body that is not JSON is no update", `{"update_id":`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := core.DecodeUpdate([]byte(tt.raw))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			switch {
			case tt.wantID == 0 && u != nil:
				t.Fatalf("update = %+v, want none", u)
			case tt.wantID != 0 && (u == nil || u.ID != tt.wantID):
				t.Fatalf("update = %+v, want id %d", u, tt.wantID)
			case tt.wantErr && u != nil && u.Message != nil:
				t.Fatalf("a rejected update must come back bare, got %+v", u.Message)
			}
		})
	}
}
