package deploy_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// Miti99botDamagedItem, evaluated over real scrapes of a container whose
// store holds a game with a flipped byte (of a module no job reads, so only
// the command below reads it): quiet until a user's command
// reads it (the first read after a start counts: the series shows at 0),
// firing then, quiet again an hour after the last read. /healthz says
// degraded meanwhile, with 200: a restart would not mend it.
func TestTheDamagedItemAlertFiresWhileADamagedItemIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.For("wordle").Put(context.Background(), "game:3", []byte(`["answer":"crane","guesses":[]}`)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := telegramtest.New(t)
	metricsAddr := testenv.FreePort(t)
	c := runtimetest.StartContainer(t, map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"METRICS_ENABLED": "true", "METRICS_PORT": strings.TrimPrefix(metricsAddr, "127.0.0.1:"),
		"KV_PROVIDER": "bolt", "BOLT_PATH": path, "LOG_LEVEL": "warn",
	})
	get, until := scraper(t, metricsAddr)
	reads := labels.FromStrings("__name__", "miti99bot_store_damaged_reads_total", "namespace", "wordle")
	fresh := get()
	srv.Push(telegramtest.Text(3, 3, "/wordle crane"))
	damaged := until(reads, 1)

	resp, err := http.Get(c.Base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), "degraded: 1 stored item(s) cannot be read") {
		t.Errorf("/healthz = %d %q, want 200 degraded", resp.StatusCode, body)
	}

	rule := alertRules(t)["Miti99botDamagedItem"]
	if rule == "" {
		t.Fatal("alerts.yml has no rule Miti99botDamagedItem")
	}
	h, at := time.Hour, time.Now()
	engine := promql.NewEngine(promql.EngineOpts{MaxSamples: 1e7, Timeout: time.Minute, LookbackDelta: 5 * time.Minute})
	for _, c := range []struct {
		name  string
		lives []life
		fires bool
	}{
		{"a bot that has read no damaged item stays quiet", []life{{from: -2 * h, snapshot: fresh}}, false},
		{"the first damaged read after a restart fires", []life{{from: -2 * h, snapshot: damaged}, {from: -10 * time.Minute, snapshot: fresh}, {from: -5 * time.Minute, snapshot: damaged}}, true},
		{"an hour after the last damaged read it is quiet", []life{{from: -3 * h, snapshot: fresh}, {from: -2 * h, snapshot: damaged}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := engine.NewInstantQuery(t.Context(), history(at, c.lives), nil, rule, at)
			if err != nil {
				t.Fatal(err)
			}
			res := q.Exec(t.Context())
			v, err := res.Vector()
			if res.Err != nil || err != nil {
				t.Fatal(res.Err, err)
			}
			if fired := len(v) > 0; fired != c.fires {
				t.Errorf("fired = %v, want %v (result %v)", fired, c.fires, v)
			}
		})
	}
}
