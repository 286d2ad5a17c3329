package cmdmain

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"testing"
)

func TestReportPrintsTheErrorOnceUnderTheCommandsName(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		wantCode int
		wantLine string
	}{
		{"success prints nothing", nil, 0, ""},
		{"asking for help is no failure", flag.ErrHelp, 0, ""},
		{"wrapped help is still help", fmt.Errorf("cron run: %w", flag.ErrHelp), 0, ""},
		{"an error is prefixed with the name", errors.New("source: no table"), 1, "migrate: source: no table\n"},
		{"a name the error already carries is not doubled", errors.New("migrate: source and target differ"), 1, "migrate: source and target differ\n"},
		{"a longer word is not taken for the name", errors.New("migrated: 3 items"), 1, "migrate: migrated: 3 items\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := Report(&out, "migrate", tt.err); code != tt.wantCode || out.String() != tt.wantLine {
				t.Fatalf("Report = %d, %q; want %d, %q", code, out.String(), tt.wantCode, tt.wantLine)
			}
		})
	}
}

func TestWantsHelpAnywhereBeforeTheFlagTerminator(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-h"}, true},
		{[]string{"--help"}, true},
		{[]string{"-help"}, true},
		{[]string{"myjob", "-url", "https://x", "--help"}, true},
		{[]string{"--", "--help"}, false},
		{[]string{"helpful", "-hx"}, false},
	}
	for _, tt := range tests {
		if got := WantsHelp(tt.args); got != tt.want {
			t.Errorf("WantsHelp(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
