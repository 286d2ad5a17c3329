package main

import (
	"context"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// With METRICS_ENABLED the container serves /metrics on METRICS_PORT, and
// only there: the bot's PORT, the one a public domain routes to, has none.
func TestMetricsAreServedOnTheirOwnPortOnly(t *testing.T) {
	srv := telegramtest.New(t)
	metricsAddr := testenv.FreePort(t)
	_, base := startContainer(t, srv, map[string]string{
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"),
	})
	srv.Push(telegramtest.Text(7, 7, "/ping"))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := srv.WaitCalls(ctx, "sendMessage", 1); err != nil {
		t.Fatal(err)
	}
	if code := status(t, base+"/metrics"); code != http.StatusNotFound {
		t.Errorf("GET /metrics on PORT = %d, want 404", code)
	}
	// The update is counted once its outcome is recorded, just after the reply.
	err := testenv.Eventually(10*time.Second, func() error {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), `miti99bot_updates_total{kind="message",outcome="handled"} 1`) {
			return errNotYet(string(body))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type errNotYet string

func (e errNotYet) Error() string { return "not counted yet in:\n" + string(e) }

// Every line a real scrape serves after real traffic is one Prometheus'
// own text parser accepts, every family says what it is (# HELP), and
// every histogram and summary has the _sum and _count the format requires.
func TestAScrapeAfterTrafficIsValidPrometheusText(t *testing.T) {
	srv := telegramtest.New(t)
	metricsAddr := testenv.FreePort(t)
	startContainer(t, srv, map[string]string{
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"),
	})
	srv.Push(telegramtest.Text(7, 7, "/ping"), telegramtest.Text(7, 7, "/help"))
	if _, err := srv.WaitCalls(t.Context(), "sendMessage", 2); err != nil {
		t.Fatal(err)
	}
	var body string
	err := testenv.Eventually(10*time.Second, func() error {
		body = scrape(t, "http://"+metricsAddr+"/metrics")
		if !strings.Contains(body, `miti99bot_updates_total{kind="message",outcome="handled"} 2`) {
			return errNotYet(body)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the Prometheus parser refuses /metrics: %v", err)
	}
	for name, f := range families {
		if f.GetHelp() == "" {
			t.Errorf("%s has no # HELP text", name)
		}
		for _, m := range f.Metric {
			switch f.GetType() {
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				if h.SampleCount == nil || h.SampleSum == nil {
					t.Errorf("histogram %s%v has no _sum or _count", name, m.Label)
					continue
				}
				if b := h.Bucket; len(b) == 0 || !math.IsInf(b[len(b)-1].GetUpperBound(), 1) || b[len(b)-1].GetCumulativeCount() != h.GetSampleCount() {
					t.Errorf("histogram %s%v: the +Inf bucket must equal _count %d", name, m.Label, h.GetSampleCount())
				}
			case dto.MetricType_SUMMARY:
				if s := m.GetSummary(); s.SampleCount == nil || s.SampleSum == nil {
					t.Errorf("summary %s%v has no _sum or _count", name, m.Label)
				}
			}
		}
	}
	if families[metrics.UpdateSeconds] == nil || families["go_goroutines"] == nil || families["process_resident_memory_bytes"] == nil {
		t.Errorf("the scrape lacks the bot's, the Go runtime's or the process's metrics:\n%s", body)
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
