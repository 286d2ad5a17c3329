package httpapi_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A damaged item makes /healthz say degraded with a 200 (an orchestrator
// must not restart what a restart cannot mend), naming no item; repaired,
// it says ok.
func TestHealthIsDegradedWhileADamagedItemStands(t *testing.T) {
	f := newFixture(t, webhookSecret, cronSecret)
	f.bot.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 100")
	coin := f.bot.Store.For("coin")
	if err := coin.Put(t.Context(), "user:3", []byte(`["cash":"100"}`)); err != nil {
		t.Fatal(err)
	}
	if err := f.bot.Handle(telegramtest.Text(apptest.PrivateChat, apptest.User, "/coin_stats")); err != nil {
		t.Fatal(err)
	}
	rec := f.do("GET", "/healthz", nil, "")
	if body := rec.Body.String(); rec.Code != 200 || !strings.HasPrefix(body, "degraded: 1 stored item(s) cannot be read") || strings.Contains(body, "user:3") {
		t.Fatalf("GET /healthz = %d %q, want 200 degraded, naming no item", rec.Code, body)
	}
	if err := coin.Delete(t.Context(), "user:3"); err != nil {
		t.Fatal(err)
	}
	if rec := f.do("GET", "/healthz", nil, ""); rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Fatalf("GET /healthz after the repair = %d %q, want ok", rec.Code, rec.Body)
	}
}
