package main

import (
	"strings"
	"testing"
)

// TestAVerifyThatCouldNotReadItsSourcePrintsNoVerdict: the runbooks gate
// on "verify: identical", so a source it could not read (a wrong table
// name, missing credentials) must fail without that line.
func TestAVerifyThatCouldNotReadItsSourcePrintsNoVerdict(t *testing.T) {
	s := newStores(t)
	out, err := migrateCmd(t, s, "--from", "dynamodb", "--from-table", s.dyn.Table()+"-absent", "--to", "mongodb", "--verify")
	if err == nil {
		t.Fatalf("verify of a table that does not exist succeeded:\n%s", out)
	}
	if strings.Contains(out, "identical") {
		t.Fatalf("verify = %v, yet it printed:\n%s", err, out)
	}
	if !strings.Contains(err.Error(), "reading the source") {
		t.Errorf("error %q does not say which side it could not read", err)
	}
}
