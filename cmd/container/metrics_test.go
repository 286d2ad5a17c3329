package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

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
