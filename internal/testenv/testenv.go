// Package testenv gives integration tests the servers that scripts/with-testservers
// started. Integration tests never skip silently: without their server they
// fail, telling the reader to run `make test`; only -short skips them.
package testenv

import (
	"os"
	"testing"
)

// Require returns the value of the environment variable name, which must be
// set unless the test runs with -short.
func Require(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v != "" {
		return v
	}
	if testing.Short() {
		t.Skipf("%s unset: integration test skipped in -short mode", name)
	}
	t.Fatalf("%s is not set: run the tests with `make test`, which starts the test servers (or pass -short to skip integration tests)", name)
	return ""
}
