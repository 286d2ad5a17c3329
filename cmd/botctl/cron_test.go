package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

func TestCronRun(t *testing.T) {
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.Header.Get("X-Cron-Token") != "cron-secret":
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/cron/lolschedule_daily_push":
			_, _ = io.WriteString(w, "ran\n")
		case r.URL.Path == "/cron/broken":
			http.Error(w, "job failed", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	defer deployment.Close()
	env := map[string]string{"CRON_SHARED_SECRET": "cron-secret", "BOT_URL": deployment.URL}
	tests := []struct {
		name, job, secret, want string
		ok                      bool
	}{
		{"a job runs", "lolschedule_daily_push", "cron-secret", "cron: ran\n", true},
		{"an unknown job", "nosuch", "cron-secret", "404", false},
		{"a failing job", "broken", "cron-secret", "500: job failed", false},
		{"a wrong secret", "lolschedule_daily_push", "guess", "401", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env["CRON_SHARED_SECRET"] = tt.secret
			out, err := botctl(t, env, "cron", "run", tt.job)
			if tt.ok && (err != nil || out != tt.want) || !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("= %q, %v", out, err)
			}
		})
	}
}

func TestCronStatusReadsEachJobsRecordFromTheStore(t *testing.T) {
	p := backendtest.Dynamo(t)
	env := map[string]string{"DYNAMODB_TABLE": p.Table()}
	if out, err := botctl(t, env, "cron", "status"); err != nil || !strings.Contains(out, "no cron job has run") {
		t.Fatalf("cron status on a fresh store = %q, %v", out, err)
	}
	slot := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	st := cron.JobStatus{
		Job: "lolschedule_daily_push", Attempts: 3, NextFire: slot.Add(24 * time.Hour),
		LastSuccess: &cron.RunInfo{Slot: slot, At: slot.Add(3 * time.Minute)},
		LastFailure: &cron.RunInfo{Slot: slot, At: slot.Add(time.Minute), Error: "esports API: 503"},
	}
	if err := p.For(app.CoreNamespace).PutJSON(t.Context(), "cronjob:lolschedule_daily_push", st); err != nil {
		t.Fatal(err)
	}
	out, err := botctl(t, env, "cron", "status")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lolschedule_daily_push", "2026-11-29T01:00:00Z (esports API: 503)", "2026-11-30T01:00:00Z", " 3 "} {
		if !strings.Contains(out, want) {
			t.Fatalf("cron status lacks %q:\n%s", want, out)
		}
	}
}
