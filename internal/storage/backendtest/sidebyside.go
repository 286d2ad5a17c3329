package backendtest

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/testenv"
)

// SideBySide compares a provider's operation with the raw driver's doing
// the same, interleaved (testenv.SideBySide): "ratio" is provider over raw.
func SideBySide(b *testing.B, provider, raw func() error) {
	b.Helper()
	testenv.SideBySide(b, testenv.Side{Name: "provider", Run: provider}, testenv.Side{Name: "raw", Run: raw})
}
