package main

import (
	"bytes"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// theBotsAnswer is what a deployment answers to GET /cron/status.
const theBotsAnswer = "store: bolt file /data/miti99bot.db\nJOB  LAST SUCCESS  LAST FAILURE  ATTEMPTS  NEXT FIRE\nlolschedule_daily_push  never  never  0  2026-12-04T01:00:00Z\n"

// fakeDeployment serves /cron/status behind the cron token, and a 200
// page that is not the bot under /portal.
func fakeDeployment(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("X-Cron-Token") != cronToken:
			w.WriteHeader(http.StatusUnauthorized)
		case r.Method == http.MethodGet && r.URL.Path == "/cron/status":
			_, _ = io.WriteString(w, theBotsAnswer)
		case r.URL.Path == "/portal/cron/status":
			_, _ = io.WriteString(w, "<html>Sign in</html>") // a 200 that is not the bot
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// The status is read where it can be and asked of the bot where it cannot:
// botctl's own memory store holds nothing the bot ran, and the embedded
// file is locked while the bot runs. Every answer names the store.
func TestCronStatusAsksTheBotWhenItCannotReadTheStoreHere(t *testing.T) {
	bot := fakeDeployment(t)
	dir := t.TempDir()
	free, locked := filepath.Join(dir, "free.db"), filepath.Join(dir, "locked.db")
	for _, path := range []string{free, locked} {
		p, err := bolt.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if path == free {
			_ = p.Close(t.Context())
		} else {
			t.Cleanup(func() { _ = p.Close(t.Context()) }) // held, as the running bot holds its file
		}
	}
	ask := map[string]string{"BOT_URL": bot, "CRON_SHARED_SECRET": cronToken}
	with := func(a, b map[string]string) map[string]string {
		out := maps.Clone(a)
		maps.Copy(out, b)
		return out
	}
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		stdout  string // exactly, when it succeeds
		problem string // in the error, when it fails
	}{
		{"no store and no bot to ask fails saying so, not that nothing ran", nil, nil, "",
			"no store is configured here"},
		{"no store asks the bot at BOT_URL", ask, nil, theBotsAnswer, ""},
		{"an explicit memory store is the bot's own: the bot is asked", with(ask, map[string]string{"KV_PROVIDER": "memory"}), nil, theBotsAnswer, ""},
		{"a readable file is read and named", with(ask, map[string]string{"BOLT_PATH": free, "MODULES": "misc"}), nil,
			"store: bolt file " + free + "\n" + cron.NoRuns + "\n", ""},
		{"-url asks the bot even when the file is readable", map[string]string{"BOLT_PATH": free, "CRON_SHARED_SECRET": cronToken}, []string{"-url", bot}, theBotsAnswer, ""},
		{"a file the running bot holds is asked of the bot", with(ask, map[string]string{"BOLT_PATH": locked}), nil, theBotsAnswer, ""},
		{"a held file with no bot to ask names the file and the ways in", map[string]string{"BOLT_PATH": locked}, nil, "",
			"is open in the running bot (the file is locked). The running bot answers: give -url"},
		{"a missing file is not created as an empty store", map[string]string{"BOLT_PATH": filepath.Join(dir, "typo.db")}, nil, "",
			"does not exist: not the bot's file"},
		{"asking needs the cron secret", map[string]string{"BOT_URL": bot}, nil, "", "asking the bot needs CRON_SHARED_SECRET"},
		{"a wrong secret is named", map[string]string{"BOT_URL": bot, "CRON_SHARED_SECRET": "guess"}, nil, "", "401: CRON_SHARED_SECRET does not match"},
		{"a 200 that is not the bot's answer fails", map[string]string{"CRON_SHARED_SECRET": cronToken}, []string{"-url", bot + "/portal"}, "",
			"not the bot's /cron/status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(t.Context(), append([]string{"cron", "status"}, tt.args...), func(k string) string { return tt.env[k] }, &out, &errOut)
			switch {
			case tt.problem == "" && (err != nil || out.String() != tt.stdout):
				t.Fatalf("= %q, %v (stderr %q); want %q", out.String(), err, errOut.String(), tt.stdout)
			case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem) || out.Len() != 0):
				t.Fatalf("= %q, %v; want a failure saying %q", out.String(), err, tt.problem)
			case err != nil && strings.Contains(err.Error(), cronToken):
				t.Fatalf("the error shows the secret: %v", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Fatal("cron status created the mistyped BOLT_PATH")
	}
}
