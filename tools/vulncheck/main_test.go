package main

import (
	"os"
	"strings"
	"testing"
)

func TestEveryCalledVulnerabilityFailsTheStandardLibraryIncluded(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		fail   bool
	}{
		{"nothing found", `{"config":{}}`, false},
		{"a called one in the standard library fails", `{"finding":{"osv":"GO-2026-6617","fixed_version":"v1.26.9","trace":[{"module":"stdlib","version":"v1.26.8","package":"net/http","function":"Error"}]}}`, true},
		{"an imported, uncalled one passes", `{"finding":{"osv":"GO-2026-0001","fixed_version":"v1.2.0","trace":[{"module":"example.com/m","version":"v1.1.0","package":"example.com/m"}]}}`, false},
		{"a required, unimported one passes", `{"finding":{"osv":"GO-2026-0003","fixed_version":"v1.2.0","trace":[{"module":"example.com/m","version":"v1.1.0"}]}}`, false},
		{"a called one in a module fails", `{"finding":{"osv":"GO-2026-0002","fixed_version":"v1.2.0","trace":[{"module":"example.com/m","version":"v1.1.0","package":"example.com/m","function":"Parse"}]}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failed, report, err := check(strings.NewReader(tt.stream))
			if err != nil || failed != tt.fail {
				t.Fatalf("check = %v, %v (%q); want fail %v", failed, err, report, tt.fail)
			}
		})
	}
}

// The recorded stream is govulncheck v1.9.0's own output for this module on
// Go 1.26.8 (trimmed to five messages): two called standard-library findings,
// one imported-only and one required-only.
func TestARecordedStandardLibraryFindingFailsWithIdFixAndCallPath(t *testing.T) {
	f, err := os.Open("testdata/govulncheck-go1.26.8.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	failed, report, err := check(f)
	if err != nil || !failed {
		t.Fatalf("check = %v, %v; want a failure", failed, err)
	}
	out := strings.Join(report, "\n")
	for _, want := range []string{
		"FAIL: GO-2026-6612 in the standard library (Go v1.26.8), fixed in Go v1.26.9",
		"call path: github.com/miti99bot/miti99bot/internal/testenv.Start -> os/exec.(*Cmd).Start",
		"net/http.(persistConnWriter).ReadFrom",
		"FAIL: GO-2026-6809",
		"vulncheck: 2 called vulnerabilities",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "GO-2026-5932") {
		t.Errorf("an uncalled finding is reported:\n%s", out)
	}
}
