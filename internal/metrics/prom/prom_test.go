package prom_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/metered"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A module with one cron job, for the cron run of the conversation.
var nightly = app.Factory{Name: "nightly", Jobs: []string{"nightly"}, New: func(app.Deps) (*app.Module, error) {
	return &app.Module{Name: "nightly", Crons: []app.Cron{{Name: "nightly", Schedule: "0 3 * * *",
		Handler: func(context.Context, app.CronRun) error { return nil }}}}, nil
}}

// TestTheMetricsAfterAScriptedConversation plays a command, its duplicate
// delivery, a 429, a failed store call and a cron run, then reads /metrics
// with Prometheus' own text parser.
func TestTheMetricsAfterAScriptedConversation(t *testing.T) {
	sink := prom.New()
	m := metrics.New(sink)
	srv := telegramtest.New(t)
	client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(rate.Inf, rate.Inf),
		telegram.WithMetrics(m), telegram.WithWait(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	sw := storagetest.NewSwitch(memory.New())
	store := metered.Wrap(sw, "memory", m)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := core.New(store, client, core.WithModules(append(builtin.Catalogue(), nightly)), core.WithBotUsername("miti99bot"),
		core.WithLogger(quiet), core.WithMetrics(m))
	if err != nil {
		t.Fatal(err)
	}
	d := cron.NewDispatcher(a.Registry(), store.For(storage.CoreNamespace), quiet, time.Now, cron.WithMetrics(m))
	ctx := t.Context()
	ping := func(id int64) error {
		u := telegramtest.Text(7, 7, "/ping")
		u.ID = id
		return a.HandleUpdate(ctx, u)
	}

	if err := ping(1); err != nil { // handled
		t.Fatal(err)
	}
	if err := ping(1); err != nil { // the same update delivered again
		t.Fatal(err)
	}
	srv.FailNext("sendMessage", telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 2", RetryAfter: 2})
	if err := ping(2); err != nil { // a 429, waited out
		t.Fatal(err)
	}
	sw.SetDown(true)
	if err := ping(3); err == nil { // the store is down: the update fails
		t.Fatal("an update with the store down succeeded")
	}
	sw.SetDown(false)
	if _, err := d.Dispatch(ctx, "nightly", time.Now()); err != nil {
		t.Fatal(err)
	}

	rec := httptest.NewRecorder()
	sink.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("the Prometheus parser refuses /metrics: %v", err)
	}
	cases := []struct {
		family string
		labels map[string]string
		want   float64
	}{
		{metrics.Updates, map[string]string{"kind": "message", "outcome": "handled"}, 2},
		{metrics.Updates, map[string]string{"kind": "message", "outcome": "duplicate"}, 1},
		{metrics.Updates, map[string]string{"kind": "message", "outcome": "failed"}, 1},
		{metrics.BotAPICalls, map[string]string{"method": "sendMessage", "result": "ok"}, 2},
		{metrics.BotAPICalls, map[string]string{"method": "sendMessage", "result": "flood"}, 1},
		{metrics.BotAPIWait, map[string]string{"method": "sendMessage"}, 2},
		{metrics.StoreOps, map[string]string{"backend": "memory", "op": "cas", "outcome": "error"}, 1},
		{metrics.StoreOps, map[string]string{"backend": "memory", "op": "cas", "outcome": "conflict"}, 1}, // the duplicate's claim
		{metrics.CronRuns, map[string]string{"job": "nightly", "outcome": "ran"}, 1},
	}
	for _, c := range cases {
		if got, ok := value(families[c.family], c.labels); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.family, c.labels, got, ok, c.want)
		}
	}
	h := families[metrics.UpdateSeconds]
	if h == nil || h.GetType() != dto.MetricType_HISTOGRAM {
		t.Fatalf("%s is not a histogram: %v", metrics.UpdateSeconds, h)
	}
	if got := h.Metric[0].GetHistogram().GetSampleCount(); got != 2 {
		t.Errorf("%d /ping timings, want 2 (the duplicate and the update whose claim failed never ran)", got)
	}
	if families["go_goroutines"] == nil || families["process_resident_memory_bytes"] == nil {
		t.Error("no Go runtime or process metrics")
	}
	for name, f := range families {
		if f.GetHelp() == "" {
			t.Errorf("%s has no # HELP text", name)
		}
	}
}

// A declared job or update kind is scraped at zero under every outcome
// before anything is counted, so increase() over it is 0, not nothing,
// after a restart, and its first count is seen.
func TestDeclaredSeriesShowEveryOutcomeAtZeroBeforeTheFirstCount(t *testing.T) {
	sink := prom.New()
	m := metrics.New(sink)
	m.DeclareCron("nightly")
	m.DeclareUpdates("message")
	rec := httptest.NewRecorder()
	sink.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		family, label, value string
		outcomes             []string
	}{
		{metrics.CronRuns, "job", "nightly", []string{"ran", "skipped", "failed", "retried", "caught_up"}},
		{metrics.Updates, "kind", "message", []string{"handled", "duplicate", "in_flight", "failed", "dropped", "ignored"}},
	}
	for _, c := range cases {
		for _, outcome := range c.outcomes {
			if got, ok := value(families[c.family], map[string]string{c.label: c.value, "outcome": outcome}); !ok || got != 0 {
				t.Errorf("%s{%s=%q,outcome=%q} = %v (found %v), want 0", c.family, c.label, c.value, outcome, got, ok)
			}
		}
	}
}

// value is the counter or gauge of family whose labels include want.
func value(f *dto.MetricFamily, want map[string]string) (float64, bool) {
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		if m.Counter != nil {
			return m.Counter.GetValue(), true
		}
		return m.Gauge.GetValue(), true
	}
	return 0, false
}
