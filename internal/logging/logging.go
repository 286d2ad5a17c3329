// Package logging builds the bot's logger: slog JSON lines, with every known
// secret masked wherever it appears (message, attribute, error text), as a
// last line of defence behind config.Secret and the redacting errors.
package logging

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/redact"
)

// LevelMetrics is the level of metric lines (CloudWatch EMF on Lambda):
// above every LOG_LEVEL, so that no setting hides them, and named METRICS.
const LevelMetrics = slog.Level(12)

// New returns a JSON logger at level that masks secrets. A duration is
// written as a person reads it ("1m30s"), not in nanoseconds: one rule
// here, so that no call site has to remember it.
func New(w io.Writer, level slog.Leveler, secrets []string) *slog.Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		switch {
		case a.Key == slog.LevelKey && a.Value.Any() == LevelMetrics:
			return slog.String(slog.LevelKey, "METRICS")
		case a.Value.Kind() == slog.KindDuration:
			return slog.String(a.Key, a.Value.Duration().String())
		}
		return a
	}})
	return slog.New(&masking{inner: h, secrets: redact.NewSet(secrets...)})
}

type masking struct {
	inner   slog.Handler
	secrets *redact.Set
}

func (m *masking) Enabled(ctx context.Context, l slog.Level) bool { return m.inner.Enabled(ctx, l) }

func (m *masking) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, m.secrets.String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(m.mask(a))
		return true
	})
	return m.inner.Handle(ctx, out)
}

func (m *masking) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = m.mask(a)
	}
	return &masking{inner: m.inner.WithAttrs(masked), secrets: m.secrets}
}

func (m *masking) WithGroup(name string) slog.Handler {
	return &masking{inner: m.inner.WithGroup(name), secrets: m.secrets}
}

// mask rewrites an attribute's text when it contains a secret. Values are
// resolved first, so errors and Stringers are masked by their final text.
func (m *masking) mask(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		attrs := v.Group()
		masked := make([]any, len(attrs))
		for i, g := range attrs {
			masked[i] = m.mask(g)
		}
		return slog.Group(a.Key, masked...)
	case slog.KindString:
		return slog.String(a.Key, m.secrets.String(v.String()))
	case slog.KindAny:
		if raw, ok := v.Any().(json.RawMessage); ok { // JSON kept as JSON (an EMF block), masked as text
			return slog.Any(a.Key, json.RawMessage(m.secrets.String(string(raw))))
		}
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, m.secrets.String(err.Error()))
		}
		return slog.String(a.Key, m.secrets.String(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
