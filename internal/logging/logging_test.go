package logging_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/logging"
)

func TestSecretsAreMaskedWhereverTheyAppear(t *testing.T) {
	const secret = "tok-123456:ABCDEF"
	var buf bytes.Buffer
	log := logging.New(&buf, slog.LevelDebug, []string{secret})
	log.Info("sending with "+secret,
		"url", "https://api.telegram.org/bot"+secret+"/sendMessage",
		"err", fmt.Errorf("wrapped: %w", errors.New("dial bot"+secret)),
		slog.Group("req", "header", secret),
		"stringer", stringer(secret))
	log.With("token", secret).WithGroup("g").Warn("x", "n", 1)
	out := buf.String()
	if strings.Contains(out, secret) {
		t.Fatalf("secret in log output:\n%s", out)
	}
	if strings.Count(out, "[REDACTED]") < 6 {
		t.Fatalf("expected every occurrence masked:\n%s", out)
	}
	if !strings.Contains(out, `"n":1`) {
		t.Fatalf("ordinary attributes must pass unchanged:\n%s", out)
	}
}

type stringer string

func (s stringer) String() string { return "value " + string(s) }

// A duration reads as a person writes it ("1m30s"), wherever it is logged:
// the logger renders it, not each call site.
func TestDurationsAreLoggedAsAPersonReadsThem(t *testing.T) {
	var buf bytes.Buffer
	log := logging.New(&buf, slog.LevelDebug, nil)
	log.Warn("waiting", "retry_in", 90*time.Second, slog.Group("lease", "ttl", 30*time.Second))
	log.With("grace", 1500*time.Millisecond).Info("stopping")
	out := buf.String()
	for _, want := range []string{`"retry_in":"1m30s"`, `"ttl":"30s"`, `"grace":"1.5s"`} {
		if !strings.Contains(out, want) {
			t.Errorf("want %s in:\n%s", want, out)
		}
	}
}
