package main

import (
	"strings"
	"testing"
)

func TestOnlyCalledVulnerabilitiesInRequiredModulesFail(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		fail   bool
	}{
		{"nothing found", `{"config":{}}`, false},
		{"a standard library one is a warning", `{"finding":{"osv":"GO-2026-6617","fixed_version":"v1.26.9","trace":[{"module":"stdlib","version":"v1.26.8","package":"net/http","function":"ReadRequest"}]}}`, false},
		{"an imported, uncalled one passes", `{"finding":{"osv":"GO-2026-0001","fixed_version":"v1.2.0","trace":[{"module":"example.com/m","version":"v1.1.0","package":"example.com/m"}]}}`, false},
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
