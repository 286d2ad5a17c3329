package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

const cronToken = "cron-secret"

func TestCronRunSucceedsOnlyOnTheRoutesOwnOutcomes(t *testing.T) {
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.Header.Get("X-Cron-Token") != cronToken:
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/cron/lolschedule_daily_push":
			_, _ = io.WriteString(w, "ran\n")
		case r.URL.Path == "/cron/claimed":
			_, _ = io.WriteString(w, "skipped\n")
		case r.URL.Path == "/cron/off":
			_, _ = io.WriteString(w, "disabled\n")
		case r.URL.Path == "/cron/portal":
			_, _ = io.WriteString(w, "<html>Sign in to continue</html>\n") // a 200 that is not the bot
		case r.URL.Path == "/cron/broken":
			http.Error(w, "job failed", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	defer deployment.Close()
	tests := []struct {
		name, job, secret, want string
		ok                      bool
	}{
		{"a job that ran succeeds", "lolschedule_daily_push", cronToken, "cron: ran\n", true},
		{"a slot another fire took succeeds", "claimed", cronToken, "cron: skipped (another fire runs or ran this slot)\n", true},
		{"a disabled module's job succeeds, saying nothing ran", "off", cronToken, "cron: disabled (the job's module is not enabled: nothing ran)\n", true},
		{"a 200 whose body is no outcome fails", "portal", cronToken, `200 answering "<html>Sign in to continue</html>", not an outcome`, false},
		{"an unknown job fails", "nosuch", cronToken, "404", false},
		{"a failing job fails", "broken", cronToken, "500: job failed", false},
		{"a wrong secret fails", "lolschedule_daily_push", "guess", "401", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"CRON_SHARED_SECRET": tt.secret, "BOT_URL": deployment.URL}
			out, err := botctl(t, env, "cron", "run", tt.job)
			if tt.ok && (err != nil || out != tt.want) || !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.want) || out != "") {
				t.Fatalf("= %q, %v", out, err)
			}
		})
	}
}

// A slot a cutover's pause held is run by its own time: the route claims
// that slot, and a daily job does that day's work.
func TestCronRunNamesTheSlotItRuns(t *testing.T) {
	var asked atomic.Value
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.URL.RawQuery)
		_, _ = io.WriteString(w, "ran\n")
	}))
	defer deployment.Close()
	tests := []struct {
		name, slot, query, fails string
	}{
		{"no slot runs now's", "", "", ""},
		{"a slot goes to the route as it was given", "2027-01-05T01:00:00Z", "scheduled=2027-01-05T01%3A00%3A00Z", ""},
		{"a slot with an offset keeps it", "2027-01-05T08:00:00+07:00", "scheduled=2027-01-05T08%3A00%3A00%2B07%3A00", ""},
		{"a slot that is no time is refused before any call", "yesterday 8am", "", "not RFC 3339"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked.Store("<none>")
			args := []string{"cron", "run", "lolschedule_daily_push"}
			if tt.slot != "" {
				args = append(args, "-scheduled", tt.slot)
			}
			out, err := botctl(t, map[string]string{"CRON_SHARED_SECRET": cronToken, "BOT_URL": deployment.URL}, args...)
			if tt.fails != "" {
				if err == nil || !strings.Contains(err.Error(), tt.fails) || asked.Load() != "<none>" {
					t.Fatalf("= %q, %v; the deployment was asked %q", out, err, asked.Load())
				}
				return
			}
			if err != nil || out != "cron: ran\n" || asked.Load() != tt.query {
				t.Fatalf("= %q, %v; the deployment was asked %q, want %q", out, err, asked.Load(), tt.query)
			}
		})
	}
}

// A redirect is refused whatever its code: following it would hand the
// token to another host, and a 301 or 302 turns the POST into a GET.
func TestCronRunFollowsNoRedirectSoTheTokenStaysHome(t *testing.T) {
	var elsewhereCalls atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhereCalls.Add(1)
		if r.Header.Get("X-Cron-Token") != "" {
			t.Errorf("the token reached another host: %s %s", r.Method, r.URL)
		}
		_, _ = io.WriteString(w, "ran\n")
	}))
	defer elsewhere.Close()
	otherHost := strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, otherHost+r.URL.Path, code)
			}))
			defer moved.Close()
			out, err := botctl(t, map[string]string{"CRON_SHARED_SECRET": cronToken, "BOT_URL": moved.URL}, "cron", "run", "lolschedule_daily_push")
			if err == nil || !strings.Contains(err.Error(), "redirects to") || out != "" {
				t.Fatalf("a %d answered %q, %v; want a failure naming the redirect", code, out, err)
			}
			if strings.Contains(err.Error(), cronToken) {
				t.Fatalf("the error shows the token: %v", err)
			}
			if n := elsewhereCalls.Load(); n != 0 {
				t.Fatalf("the redirect was followed: %d requests elsewhere", n)
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The token crosses the network only under TLS; plain http is for this
// machine (tests, a local run).
func TestCronRunSendsTheTokenOnlyOverHTTPSOrLoopback(t *testing.T) {
	var sent []string
	saved := cronClient.Transport
	cronClient.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.String())
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("ran\n")), Request: r}, nil
	})
	t.Cleanup(func() { cronClient.Transport = saved })
	tests := []struct {
		base string
		sent bool
	}{
		{"https://bot.example.com", true},
		{"https://bot.example.com/", true},
		{"http://127.0.0.1:8080", true},
		{"http://localhost:8080", true},
		{"http://[::1]:8080", true},
		{"http://bot.example.com", false},
		{"http://10.0.0.5:8080", false},
		{"http://user:pass@bot.example.com", false},
		{"ftp://bot.example.com", false},
		{"bot.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			sent = nil
			out, err := botctl(t, map[string]string{"CRON_SHARED_SECRET": cronToken}, "cron", "run", "job", "-url", tt.base)
			switch {
			case tt.sent && (err != nil || out != "cron: ran\n" || len(sent) != 1 || !strings.HasSuffix(sent[0], "/cron/job") || strings.Contains(sent[0], "//cron")):
				t.Fatalf("= %q, %v, sent %q; want one POST to .../cron/job", out, err, sent)
			case !tt.sent && (err == nil || len(sent) != 0):
				t.Fatalf("= %v, sent %q; want a refusal before any request", err, sent)
			case !tt.sent && strings.Contains(err.Error(), "pass"):
				t.Fatalf("the refusal shows the URL's password: %v", err)
			}
		})
	}
}

func TestCronStatusReadsEachJobsRecordFromTheStore(t *testing.T) {
	p := backendtest.Dynamo(t)
	env := map[string]string{"DYNAMODB_TABLE": p.Table()}
	// A fresh deploy: every job MODULES enables is listed, never run.
	fresh := regexp.MustCompile(`(?m)\Astore: dynamodb table ` + regexp.QuoteMeta(p.Table()) + `\n(?s:.*)^lolschedule_daily_push +never +never +0 +\d{4}-\d\d-\d\dT01:00:00Z$`)
	if out, err := botctl(t, env, "cron", "status"); err != nil || !fresh.MatchString(out) {
		t.Fatalf("cron status on a fresh store = %q, %v; want the daily push listed, never run", out, err)
	}
	slot := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	st := cron.JobStatus{
		Job: "lolschedule_daily_push", Attempts: 3, NextFire: slot.Add(24 * time.Hour),
		LastSuccess: &cron.RunInfo{Slot: slot, At: slot.Add(3 * time.Minute)},
		LastFailure: &cron.RunInfo{Slot: slot, At: slot.Add(time.Minute), Error: "esports API: 503"},
	}
	if err := p.For(storage.CoreNamespace).PutJSON(t.Context(), "cronjob:lolschedule_daily_push", st); err != nil {
		t.Fatal(err)
	}
	out, err := botctl(t, env, "cron", "status")
	if err != nil {
		t.Fatal(err)
	}
	// The next fire is from now, not the record's, which may be days old.
	ran := regexp.MustCompile(`(?m)^lolschedule_daily_push +2026-11-29T01:00:00Z +2026-11-29T01:00:00Z \(esports API: 503\) +3 +\d{4}-\d\d-\d\dT01:00:00Z$`)
	if !strings.HasPrefix(out, "store: dynamodb table "+p.Table()+"\n") || !ran.MatchString(out) || strings.Contains(out, "2026-11-30T01:00:00Z") {
		t.Fatalf("cron status:\n%s", out)
	}
}

// A schedule with no next fire (or a record without one) reads "never",
// not the zero time's 0001-01-01.
func TestCronStatusSaysNeverForNoNextFire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	slot := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	st := cron.JobStatus{Job: "leap_day", Attempts: 1, LastSuccess: &cron.RunInfo{Slot: slot, At: slot}}
	if err := p.For(storage.CoreNamespace).PutJSON(t.Context(), "cronjob:leap_day", st); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	out, err := botctl(t, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}, "cron", "status")
	if err != nil || !strings.Contains(out, "never") || strings.Contains(out, "0001-01-01") {
		t.Fatalf("cron status = %q, %v; want the next fire as never", out, err)
	}
}
