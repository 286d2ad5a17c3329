package testenv

import (
	"slices"
	"testing"
)

func TestALogLineMustNameEachKeyOnce(t *testing.T) {
	tests := []struct {
		name, line string
		dups       []string
		invalid    bool
	}{
		{"distinct keys pass", `{"msg":"cron done","cron":"job","attempt":1}`, nil, false},
		{"a key twice is named", `{"msg":"cron job status","cron":"job","cron":"job"}`, []string{"cron"}, false},
		{"a key twice inside a group is named by its path", `{"err":{"op":"put","op":"get"}}`, []string{"err.op"}, false},
		{"equal keys in different objects pass", `{"a":{"k":1},"b":{"k":2},"k":3}`, nil, false},
		{"objects in an array are checked", `{"list":[{"k":1,"k":2}]}`, []string{"list.k"}, false},
		{"a line cut short is not JSON", `{"msg":"cron`, nil, true},
		{"two values on one line are not one line", `{"a":1}{"b":2}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dups, err := DuplicateKeys(tt.line)
			if (err != nil) != tt.invalid || !slices.Equal(dups, tt.dups) {
				t.Fatalf("DuplicateKeys(%s) = %q, %v; want %q, invalid %v", tt.line, dups, err, tt.dups, tt.invalid)
			}
		})
	}
}

func TestOnlyCompleteJSONLinesAreTheBotsLogs(t *testing.T) {
	tests := []struct {
		name, out string
		fails     bool
	}{
		{"valid JSON lines pass", "{\"msg\":\"a\"}\n{\"msg\":\"b\"}\n", false},
		{"an emulator's plain text passes", "START RequestId: 1\n[INFO] (rapid) ready\n", false},
		{"a last line still being written passes", "{\"msg\":\"a\"}\n{\"msg\":", false},
		{"a duplicate key fails", "{\"cron\":\"j\",\"cron\":\"j\"}\n", true},
		{"a cut JSON line fails", "{\"msg\":\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			CheckLogLines(rec, "bot", tt.out)
			if rec.failed != tt.fails {
				t.Fatalf("failed = %v, want %v", rec.failed, tt.fails)
			}
		})
	}
}

// recorder notes a failure instead of failing the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}
