package container

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// gauges records the gauges set.
type gauges struct {
	mu  sync.Mutex
	set map[string]float64
}

func (g *gauges) Add(metrics.Series, float64)     {}
func (g *gauges) Observe(metrics.Series, float64) {}
func (g *gauges) Set(s metrics.Series, v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.set[s.Name] = v
}

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
			g := &gauges{set: map[string]float64{}}
			checkClock(t.Context(), api.URL, func() time.Time { return local }, slog.New(slog.NewJSONHandler(logs, nil)), metrics.New(g))

			warned := strings.Contains(logs.String(), `"level":"WARN"`)
			if warned != (tt.warn != "") || !strings.Contains(logs.String(), tt.warn) {
				t.Fatalf("logs:\n%s\nwant a warning saying %q: %v", logs, tt.warn, tt.warn != "")
			}
			if v, ok := g.set[metrics.ClockSkew]; ok != tt.set || v != tt.gauge {
				t.Fatalf("gauge %s = %v (set %v), want %v (set %v)", metrics.ClockSkew, v, ok, tt.gauge, tt.set)
			}
			testenv.CheckLogLines(t, "the clock check", logs.String())
		})
	}
}

func TestAnUnreachableBotAPIChecksNothingAndWarnsNot(t *testing.T) {
	logs := &testenv.Buffer{}
	g := &gauges{set: map[string]float64{}}
	checkClock(t.Context(), "http://"+testenv.FreePort(t), time.Now, slog.New(slog.NewJSONHandler(logs, nil)), metrics.New(g))
	if !strings.Contains(logs.String(), "clock not checked") || strings.Contains(logs.String(), `"level":"WARN"`) || len(g.set) != 0 {
		t.Fatalf("logs:\n%s\ngauges %v; want an info line and no gauge", logs, g.set)
	}
}
