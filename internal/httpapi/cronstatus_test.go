package httpapi_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/httpapi"
)

// GET /cron/status is botctl cron status answered by the running bot: the
// same table, naming the store, behind the cron token.
func TestCronStatusAnswersTheTableBehindTheCronToken(t *testing.T) {
	tok := map[string]string{"X-Cron-Token": cronSecret}
	tests := []struct {
		name    string
		secret  string
		headers map[string]string
		ran     bool // the job ran before the request
		down    bool // the store fails
		want    int
		body    []string // patterns of the body's lines
	}{
		{"it is 404 while the cron secret is unset", "", tok, false, false, 404, nil},
		{"a wrong token is refused", cronSecret, map[string]string{"X-Cron-Token": "guess"}, false, false, 401, nil},
		{"no token is refused", cronSecret, nil, false, false, 401, nil},
		{"before any run it names the store and lists each enabled job, never run, with its next fire", cronSecret, tok, false, false, 200,
			[]string{`^store: memory store \(test\)$`, `^JOB `, `^testjob +never +never +0 +\d{4}-\d\d-\d\dT01:00:00Z$`, `^lolschedule_daily_push +never +never +0 +\d{4}-`}},
		{"after a run it names the store and lists the job's run", cronSecret, tok, true, false, 200,
			[]string{`^store: memory store \(test\)$`, `^JOB `, `^testjob +2026-11-29T01:00:00Z +never +1 +\d{4}-`}},
		{"a failing store is a 503 that names no detail", cronSecret, tok, false, true, 503, []string{`^cron status unreadable: the store failed$`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, webhookSecret, tt.secret)
			if tt.ran {
				if rec := f.do("POST", "/cron/testjob?scheduled=2026-11-29T01:00:00Z", tok, ""); rec.Code != 200 {
					t.Fatalf("the run = %d %q", rec.Code, rec.Body)
				}
			}
			f.bot.Store.SetDown(tt.down)
			rec := f.do("GET", "/cron/status", tt.headers, "")
			if rec.Code != tt.want {
				t.Fatalf("GET /cron/status = %d %q, want %d", rec.Code, rec.Body, tt.want)
			}
			for _, line := range tt.body {
				if !regexp.MustCompile(`(?m)` + line).MatchString(rec.Body.String()) {
					t.Fatalf("the body has no line %q:\n%s", line, rec.Body)
				}
			}
		})
	}
}

// The status route does not take a job's place: POST /cron/status still
// asks to run a job of that name, which no module has.
func TestPostingToCronStatusRunsNoJob(t *testing.T) {
	f := newFixture(t, webhookSecret, cronSecret)
	if rec := f.do("POST", "/cron/status", map[string]string{"X-Cron-Token": cronSecret}, ""); rec.Code != 404 || f.jobRuns.Load() != 0 {
		t.Fatalf("POST /cron/status = %d, %d runs; want 404 and none", rec.Code, f.jobRuns.Load())
	}
}

// A job's error may quote a secret it was given; the status answer, which
// leaves the store for whoever holds the cron token, masks it.
func TestCronStatusMasksSecretsInAJobsError(t *testing.T) {
	const key = "sk-live-0123456789"
	leaky := app.Factory{Name: "jobs", Jobs: []string{"leaky"}, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "jobs", Crons: []app.Cron{{Name: "leaky", Schedule: "0 1 * * *", Handler: func(context.Context, app.CronRun) error {
			return errors.New("GET https://api.example.com/v1?key=" + key + ": 503")
		}}}}, nil
	}}
	bot := apptest.New(t, []app.Factory{leaky})
	h := httpapi.NewHandler(httpapi.Config{
		Handle: bot.App.HandleUpdate, Health: bot.App.Health, Dispatcher: bot.Dispatcher(time.Now),
		CronSecret: cronSecret, Log: bot.Log, Store: "memory store (test)", Secrets: []string{key},
	})
	tok := map[string]string{"X-Cron-Token": cronSecret}
	f := &fixture{bot: bot, h: h}
	if rec := f.do("POST", "/cron/leaky", tok, ""); rec.Code != 500 {
		t.Fatalf("the failing run = %d", rec.Code)
	}
	rec := f.do("GET", "/cron/status", tok, "")
	if body := rec.Body.String(); rec.Code != 200 || strings.Contains(body, key) || !strings.Contains(body, "key=[REDACTED]: 503") {
		t.Fatalf("GET /cron/status = %d:\n%s\nwant the error with the key masked", rec.Code, body)
	}
}
