package container

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/metricstest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// At start the container compares its clock with the Bot API's Date
// header: only a skew certainly past a second warns, whichever way, and
// the gauge shows the certain part of it.
func TestAClockCertainlyOffTheBotAPIsByMoreThanASecondWarns(t *testing.T) {
	local := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC) // this host's clock, frozen: no round trip
	tests := []struct {
		name  string
		date  string // the Bot API's Date header; "" for none
		warn  string // in the warning; "" for none
		gauge float64
		set   bool // the gauge is set
	}{
		{"the same second is fine", local.Format(http.TimeFormat), "", 0, true},
		{"one second behind is within the header's resolution", local.Add(time.Second).Format(http.TimeFormat), "", 1, true},
		{"five seconds behind warns", local.Add(5 * time.Second).Format(http.TimeFormat), "behind the Bot API's", 5, true},
		{"five seconds ahead warns", local.Add(-5 * time.Second).Format(http.TimeFormat), "ahead of the Bot API's", -4, true},
		{"no Date header checks nothing", "", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/" || strings.Contains(r.URL.String(), "bot") {
					t.Errorf("the check asked %s, not the API's root", r.URL)
				}
				w.Header()["Date"] = nil // net/http adds its own unless told not to
				if tt.date != "" {
					w.Header().Set("Date", tt.date)
				}
				http.Redirect(w, r, "https://core.telegram.org/bots", http.StatusFound) // as api.telegram.org does
			}))
			defer api.Close()
			logs := &testenv.Buffer{}
			g := &metricstest.Gauges{}
			checkClock(t.Context(), api.URL, func() time.Time { return local }, slog.New(slog.NewJSONHandler(logs, nil)), metrics.New(g))

			warned := strings.Contains(logs.String(), `"level":"WARN"`)
			if warned != (tt.warn != "") || !strings.Contains(logs.String(), tt.warn) {
				t.Fatalf("logs:\n%s\nwant a warning saying %q: %v", logs, tt.warn, tt.warn != "")
			}
			if v, ok := g.Get(metrics.ClockSkew); ok != tt.set || v != tt.gauge {
				t.Fatalf("gauge %s = %v (set %v), want %v (set %v)", metrics.ClockSkew, v, ok, tt.gauge, tt.set)
			}
			testenv.CheckLogLines(t, "the clock check", logs.String())
		})
	}
}

func TestAnUnreachableBotAPIChecksNothingAndWarnsNot(t *testing.T) {
	logs := &testenv.Buffer{}
	g := &metricstest.Gauges{}
	checkClock(t.Context(), "http://"+testenv.FreePort(t), time.Now, slog.New(slog.NewJSONHandler(logs, nil)), metrics.New(g))
	if !strings.Contains(logs.String(), "clock not checked") || strings.Contains(logs.String(), `"level":"WARN"`) || g.Len() != 0 {
		t.Fatalf("logs:\n%s\n%d gauges set; want an info line and no gauge", logs, g.Len())
	}
}
