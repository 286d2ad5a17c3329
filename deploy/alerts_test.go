package deploy_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/histogram"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/model/textparse"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
	"github.com/prometheus/prometheus/tsdb/chunks"
	"github.com/prometheus/prometheus/util/annotations"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// TestTheAlertRulesFireWhenTheyMustAndOnlyThen evaluates every rule of
// deploy/prometheus/alerts.yml with Prometheus' engine over histories
// made of real scrapes of the container: one just after start, one after
// the daily push ran, one after a burst of failed updates, one of a bot
// whose token Telegram refuses; and, of a bot with BACKUP_DIR, one before
// its first snapshot, one after it, one after a failed snapshot and one
// after the snapshot that made it good. Each history is what Prometheus
// would have stored scraping once a minute, with the counters a working
// bot adds every minute (its long poll's answers, its timers' runs)
// ticking where the case says, on one replica or several.
func TestTheAlertRulesFireWhenTheyMustAndOnlyThen(t *testing.T) {
	rules := alertRules(t)
	fresh, pushed, failing := scrapes(t)
	refused := refusedScrape(t)
	b := backupScrapes(t)

	const push, failures = "Miti99botDailyPushNotRun", "Miti99botUpdatesFailing"
	const old, failed = "Miti99botSnapshotTooOld", "Miti99botSnapshotFailed"
	const deaf, timers, timersFailing = "Miti99botHearsNothing", "Miti99botTimersNotRunning", "Miti99botTimersFailing"
	h, m := time.Hour, time.Minute
	// What a working bot's counters do between scrapes: its long poll
	// answers, and its timers run, at least once a minute.
	polls := func(from, until time.Duration) tick { return tick{getUpdatesOK, from, until} }
	ticks := func(from, until time.Duration) tick { return tick{timersRan, from, until} }
	fails := func(from, until time.Duration) tick { return tick{timersFailed, from, until} }
	at := time.Date(2026, 3, 10, 1, 2, 0, 0, time.UTC) // a minute after today's push was due
	cases := []struct {
		name  string
		rule  string
		lives []life // the bot's processes, oldest first; the last runs until the evaluation
		at    time.Time
		fires bool
	}{
		{"a new deployment whose first push is not due yet stays quiet", push,
			[]life{{from: -10 * h, snapshot: fresh}}, at, false},
		{"a push in the last day keeps it quiet", push,
			[]life{{from: -30 * h, snapshot: fresh}, {from: -20 * h, snapshot: pushed}}, at, false},
		{"yesterday's push that finished a minute later than today's has yet to keeps it quiet", push,
			[]life{{from: -30 * h, snapshot: fresh}, {from: -24*h + time.Minute, snapshot: pushed}}, at, false},
		{"a day without the push on a long-running bot fires", push,
			[]life{{from: -60 * h, snapshot: fresh}, {from: -50 * h, snapshot: pushed}}, at, true},
		{"a redeploy after which the push never runs fires", push,
			[]life{{from: -60 * h, snapshot: fresh}, {from: -50 * h, snapshot: pushed}, {from: -26 * h, snapshot: fresh}}, at, true},
		{"a healthy bot stays quiet", failures,
			[]life{{from: -2 * h, snapshot: fresh}}, at, false},
		{"a burst of failures just after a restart fires", failures,
			[]life{{from: -h, snapshot: pushed}, {from: -10 * time.Minute, snapshot: fresh}, {from: -5 * time.Minute, snapshot: failing}}, at, true},

		// The snapshots' gauge holds the real time the bot took each: these
		// evaluate at that time plus what the case says.
		{"a bot without BACKUP_DIR stays quiet about snapshots", old,
			[]life{{from: -60 * h, snapshot: fresh}}, at, false},
		{"no snapshot yet fires, so that the first is taken by hand", old,
			[]life{{from: -2 * h, snapshot: b.none}}, b.taken.Add(h), true},
		{"a snapshot of an hour ago keeps it quiet", old,
			[]life{{from: -2 * h, snapshot: b.none}, {from: -h, snapshot: b.taken1}}, b.taken.Add(h), false},
		{"no snapshot for 27 hours fires", old,
			[]life{{from: -28 * h, snapshot: b.taken1}}, b.taken.Add(27 * h), true},
		{"a day of good snapshots keeps the failure rule quiet", failed,
			[]life{{from: -25 * h, snapshot: b.taken1}}, b.taken.Add(24 * h), false},
		{"a failed run with no snapshot since fires", failed,
			[]life{{from: -24 * h, snapshot: b.taken1}, {from: -10 * time.Minute, snapshot: b.failed}}, b.taken.Add(24*h + 10*time.Minute), true},
		{"a failed run that a retry made good stays quiet", failed,
			[]life{{from: -24 * h, snapshot: b.taken1}, {from: -20 * time.Minute, snapshot: b.failed}, {from: -10 * time.Minute, snapshot: b.retaken}}, b.retakenAt.Add(10 * time.Minute), false},

		// A bot that hears nothing: Telegram refuses its token, or its
		// long poll stalled. Replicas share the polling: the rule sums them.
		{"a bot whose long poll answers stays quiet", deaf,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{polls(-5*h, 0)}}}, at, false},
		{"a poll that stopped answering 20 minutes ago fires", deaf,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{polls(-5*h, -20*m)}}}, at, true},
		{"a restart after which Telegram refuses the token fires", deaf,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{polls(-5*h, 0)}}, {from: -15 * m, snapshot: refused}}, at, true},
		{"a new deployment whose token is refused fires within 20 minutes", deaf,
			[]life{{from: -20 * m, snapshot: refused}}, at, true},
		{"a deployment younger than the window stays quiet until it can tell", deaf,
			[]life{{from: -3 * m, snapshot: refused}}, at, false},
		{"a replica standing by while another polls stays quiet", deaf,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{polls(-5*h, 0)}, instance: "a"}, {from: -5 * h, snapshot: fresh, instance: "b"}}, at, false},
		{"two replicas, neither polling, fire", deaf,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{polls(-5*h, -30*m)}, instance: "a"}, {from: -5 * h, snapshot: fresh, instance: "b"}}, at, true},

		// Timers run every minute; a store outage stops them.
		{"timers that run every minute keep it quiet", timers,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, 0)}}}, at, false},
		{"a store outage of 20 minutes fires", timers,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, -20*m), fails(-20*m, 0)}}}, at, true},
		{"a store outage of 3 minutes stays quiet", timers,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, -3*m), fails(-3*m, 0)}}}, at, false},
		{"a redeploy after which timers never run fires", timers,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, 0)}}, {from: -20 * m, snapshot: fresh}}, at, true},
		{"a deployment younger than the window stays quiet", timers,
			[]life{{from: -3 * m, snapshot: fresh}}, at, false},
		{"a replica whose every slot another runs stays quiet", timers,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, 0)}, instance: "a"}, {from: -5 * h, snapshot: fresh, instance: "b"}}, at, false},
		{"timers that run keep the failure rule quiet", timersFailing,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, 0)}}}, at, false},
		{"timers failing for 20 minutes fire", timersFailing,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, -20*m), fails(-20*m, 0)}}}, at, true},
		{"3 failed minutes stay quiet", timersFailing,
			[]life{{from: -5 * h, snapshot: fresh, ticks: []tick{ticks(-5*h, -3*m), fails(-3*m, 0)}}}, at, false},
	}
	engine := promql.NewEngine(promql.EngineOpts{MaxSamples: 1e7, Timeout: time.Minute, LookbackDelta: 5 * time.Minute})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expr, ok := rules[c.rule]
			if !ok {
				t.Fatalf("alerts.yml has no rule %s", c.rule)
			}
			q, err := engine.NewInstantQuery(t.Context(), history(c.at, c.lives), nil, expr, c.at)
			if err != nil {
				t.Fatal(err)
			}
			res := q.Exec(t.Context())
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			v, err := res.Vector()
			if err != nil {
				t.Fatal(err)
			}
			if fired := len(v) > 0; fired != c.fires {
				t.Errorf("%s fired = %v, want %v (result %v)", c.rule, fired, c.fires, v)
			}
		})
	}
}

// alertRules parses alerts.yml as Prometheus loads a rule file (unknown
// fields and bad expressions are errors) and returns each alert's expression.
func alertRules(t *testing.T) map[string]string {
	t.Helper()
	groups, errs := rulefmt.ParseFile("prometheus/alerts.yml", false, model.UTF8Validation, parser.NewParser(parser.Options{}), slog.New(slog.DiscardHandler))
	if len(errs) > 0 {
		t.Fatalf("alerts.yml: %v", errors.Join(errs...))
	}
	out := map[string]string{}
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			if r.For != 0 {
				t.Errorf("%s has a for:, which this test does not evaluate", r.Alert)
			}
			out[r.Alert] = r.Expr
		}
	}
	return out
}

// scrapes runs the container with metrics on and scrapes it three times:
// just started, after the daily push ran, and after updates failed; each
// parsed with Prometheus' scrape parser.
func scrapes(t *testing.T) (fresh, pushed, failing []sample) {
	t.Helper()
	srv := telegramtest.New(t)
	// An empty schedule: the push runs and has nothing to send.
	lol := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"data":{"schedule":{"pages":{},"events":[]}}}`)
	}))
	t.Cleanup(lol.Close)
	metricsAddr := testenv.FreePort(t)
	c := runtimetest.StartContainer(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"),
		"CRON_SHARED_SECRET": "tok", "LOLESPORTS_API_URL": lol.URL, "LOG_LEVEL": "warn",
	})
	get, until := scraper(t, metricsAddr)
	ran := labels.FromStrings("__name__", "miti99bot_cron_runs_total", "job", "lolschedule_daily_push", "outcome", "ran")
	failed := labels.FromStrings("__name__", "miti99bot_updates_total", "kind", "message", "outcome", "failed")
	fresh = get()
	// Not always 0: started between 01:00 and 07:00 UTC the scheduler runs
	// the day's missed push at once; the push below comes on top.
	before := valueOf(fresh, ran)

	if out := runCron(t, c.Base, "lolschedule_daily_push"); out != "ran" {
		t.Fatalf("the push answered %q", out)
	}
	pushed = until(ran, before+1)

	// Five chats' /ping at once, and Telegram fails the first five replies:
	// five updates fail together (each comes back later and is answered).
	srv.FailNext("sendMessage", repeat(telegramtest.Failure{Code: 500, Description: "Internal Server Error"}, 5)...)
	for chat := range int64(5) {
		srv.Push(telegramtest.Text(10+chat, 10+chat, "/ping"))
	}
	failing = until(failed, 5)
	for _, s := range []labels.Labels{getUpdatesOK, timersRan, timersFailed} {
		if valueOf(fresh, s) < 0 {
			t.Errorf("just started, the bot does not show %s; an alert on its increase then misses a restart after which it never counts", s)
		}
	}
	return fresh, pushed, failing
}

// refusedScrape scrapes a bot whose token Telegram refuses (401), once it
// has been refused.
func refusedScrape(t *testing.T) []sample {
	t.Helper()
	srv := telegramtest.New(t)
	metricsAddr := testenv.FreePort(t)
	runtimetest.StartContainer(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token + "revoked", "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"), "LOG_LEVEL": "error",
	})
	_, until := scraper(t, metricsAddr)
	// Polling starts with deleteWebhook, which Telegram refuses: getUpdates
	// is never called.
	refused := labels.FromStrings("__name__", "miti99bot_botapi_calls_total", "method", "deleteWebhook", "result", "error")
	return until(refused, 1)
}

// scraper reads the bot's /metrics at addr: get scrapes once; until
// scrapes until the series reaches at least want.
func scraper(t *testing.T, addr string) (get func() []sample, until func(labels.Labels, float64) []sample) {
	get = func() []sample {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return parse(t, string(b))
	}
	until = func(series labels.Labels, want float64) []sample {
		t.Helper()
		var got []sample
		if err := testenv.Eventually(10*time.Second, func() error {
			got = get()
			if v := valueOf(got, series); v < want {
				return fmt.Errorf("%s = %v, want %v", series, v, want)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	return get, until
}

// runCron runs a job now through the bot's cron route, as botctl cron run
// does, and returns its answer ("ran", "job failed", ...); job may carry
// the route's query (?scheduled=).
func runCron(t *testing.T, base, job string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/cron/"+job, nil)
	req.Header.Set("X-Cron-Token", "tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(body))
}

// valueOf is the series' value in the scrape (-1 when it lacks it).
func valueOf(samples []sample, series labels.Labels) float64 {
	for _, s := range samples {
		if labels.Equal(s.lset, series) {
			return s.v
		}
	}
	return -1
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// life is one process of the bot, from its start (relative to the
// evaluation) on, scraped as snapshot shows, but for the counters that
// tick. A life lasts until the next one of its instance (a replica; ""
// when there is one).
type life struct {
	from     time.Duration
	snapshot []sample
	ticks    []tick
	instance string
}

// tick is a counter of the snapshot that counts one a minute from from to
// until (relative to the evaluation, as life.from), within its life: what
// a scrape a minute shows of a long poll that answers, or a job that runs,
// every minute. A series the snapshot lacks does not tick: the bot does
// not serve it.
type tick struct {
	series      labels.Labels
	from, until time.Duration
}

// The series the ticks count.
var (
	getUpdatesOK = labels.FromStrings("__name__", "miti99bot_botapi_calls_total", "method", "getUpdates", "result", "ok")
	timersRan    = labels.FromStrings("__name__", "miti99bot_cron_runs_total", "job", "timers", "outcome", "ran")
	timersFailed = labels.FromStrings("__name__", "miti99bot_cron_runs_total", "job", "timers", "outcome", "failed")
)

// ticked is how much t added to its series by d, in a life from from.
func (t tick) ticked(from, d time.Duration) float64 {
	start, end := max(t.from, from), min(d, t.until)
	if end <= start {
		return 0
	}
	return float64((end - start) / time.Minute)
}

// history is what Prometheus stores scraping the lives once a minute up to
// at, of the bot's own series (the rules read no other: the Go runtime's
// would only slow the test).
func history(at time.Time, lives []life) storage.Queryable {
	type key = string
	series := map[key]*storage.SeriesEntry{}
	points := map[key][]chunks.Sample{}
	lsets := map[key]labels.Labels{}
	for i, l := range lives {
		end, last := time.Duration(0), true
		for _, n := range lives[i+1:] {
			if n.instance == l.instance {
				end, last = n.from, false
				break
			}
		}
		var own []sample
		var keys []key
		var counts [][]tick
		for _, s := range l.snapshot {
			if strings.HasPrefix(s.lset.Get(labels.MetricName), "miti99bot_") {
				var c []tick
				for _, t := range l.ticks {
					if labels.Equal(t.series, s.lset) {
						c = append(c, t)
					}
				}
				lset := s.lset
				if l.instance != "" {
					lset = labels.NewBuilder(lset).Set("instance", l.instance).Labels()
				}
				k := lset.String()
				own, keys, counts = append(own, s), append(keys, k), append(counts, c)
				lsets[k] = lset
			}
		}
		for d := l.from; d < end || (last && d <= end); d += time.Minute {
			ts := at.Add(d).UnixMilli()
			for j, s := range own {
				v := s.v
				for _, t := range counts[j] {
					v += t.ticked(l.from, d)
				}
				points[keys[j]] = append(points[keys[j]], point{t: ts, v: v})
			}
		}
	}
	for k, ps := range points {
		series[k] = storage.NewListSeries(lsets[k], ps)
	}
	return &storage.MockQueryable{MockQuerier: &storage.MockQuerier{
		SelectMockFunction: func(_ bool, _ *storage.SelectHints, ms ...*labels.Matcher) storage.SeriesSet {
			var out []storage.Series
		next:
			for k, s := range series {
				for _, m := range ms {
					if !m.Matches(lsets[k].Get(m.Name)) {
						continue next
					}
				}
				out = append(out, s)
			}
			return &seriesSet{list: out, i: -1}
		},
	}}
}

type sample struct {
	lset labels.Labels
	v    float64
}

// parse reads a scrape with the parser Prometheus scrapes with.
func parse(t *testing.T, text string) []sample {
	t.Helper()
	p, err := textparse.New([]byte(text), "text/plain; version=0.0.4", nil, textparse.ParserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for {
		e, err := p.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Prometheus' scrape parser refuses the scrape: %v", err)
		}
		if e != textparse.EntrySeries {
			continue
		}
		var l labels.Labels
		p.Labels(&l)
		_, _, v := p.Series()
		out = append(out, sample{lset: l, v: v})
	}
}

// point is one float sample.
type point struct {
	t int64
	v float64
}

func (p point) T() int64                      { return p.t }
func (p point) ST() int64                     { return 0 }
func (p point) F() float64                    { return p.v }
func (p point) H() *histogram.Histogram       { return nil }
func (p point) FH() *histogram.FloatHistogram { return nil }
func (p point) Type() chunkenc.ValueType      { return chunkenc.ValFloat }
func (p point) Copy() chunks.Sample           { return p }

type seriesSet struct {
	list []storage.Series
	i    int
}

func (s *seriesSet) Next() bool                        { s.i++; return s.i < len(s.list) }
func (s *seriesSet) At() storage.Series                { return s.list[s.i] }
func (s *seriesSet) Err() error                        { return nil }
func (s *seriesSet) Warnings() annotations.Annotations { return nil }
