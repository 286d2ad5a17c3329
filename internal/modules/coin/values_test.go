package coin

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// lastAnswer is the text of the newest callback answer.
func lastAnswer(b *apptest.Bot) string {
	a := b.Srv.Calls("answerCallbackQuery")
	return a[len(a)-1].Params["text"]
}

// The portfolio chart: the daily job runs once per day whichever
// runtimes fire it, /coin_stats has a chart button for its owner only,
// and the chart comes once two days are recorded.
func TestThePortfolioChartFromTheDailyJob(t *testing.T) {
	b, _, clk := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/coin_topup 1000")
	b.MustSay(apptest.Group, apptest.User, "/coin_buy BTC 100")
	fire := func() {
		t.Helper()
		slot := clk.Now().Truncate(24 * time.Hour).Add(17 * time.Hour)
		// Two runtimes (the container's scheduler and Lambda's) fire the slot.
		var outcomes []string
		for range 2 {
			out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_values", slot)
			if err != nil {
				t.Fatal(err)
			}
			outcomes = append(outcomes, string(out))
		}
		if strings.Join(outcomes, ",") != string(cron.Ran)+","+string(cron.Skipped) {
			t.Fatalf("two fires of one slot: %v; want one run and one skip", outcomes)
		}
	}
	clk.Add(5 * time.Hour) // 17:00 UTC, midnight in Vietnam
	fire()

	b.MustSay(apptest.Group, apptest.User, "/coin_stats")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	if len(rows[0]) != 2 || rows[0][1].CallbackData != "coinv:3" {
		t.Fatalf("stats keyboard %+v; want refresh and the owner's chart", rows)
	}
	press := func(user int64) {
		t.Helper()
		if err := b.Handle(telegramtest.Press(apptest.Group, user, id, rows[0][1].CallbackData)); err != nil {
			t.Fatal(err)
		}
	}
	press(apptest.User)
	if got := lastAnswer(b); got != trading.NoValuesYet {
		t.Fatalf("one day recorded: toast %q; want %q", got, trading.NoValuesYet)
	}
	press(apptest.Admin)
	if got := lastAnswer(b); got != trading.NotYoursToast {
		t.Fatalf("someone else's press: toast %q; want the not-yours toast", got)
	}

	clk.Add(24 * time.Hour)
	fire()
	b.MustSay(apptest.Group, apptest.User, "/coin_topup 500") // a deposit after the chart's last day
	press(apptest.User)
	photos := b.Srv.Photos()
	if len(photos) != 1 {
		t.Fatalf("%d photos after two days; want the value chart", len(photos))
	}
	checkPhoto(t, photos[0].PNG)
	want := "Your coin portfolio: $1,000.00 on 2026-11-30 (deposited $1,000.00)\n2 daily values from 2026-11-29 to 2026-11-30"
	if !strings.HasPrefix(photos[0].Caption, want) {
		t.Fatalf("caption %q\nwant    %q...", photos[0].Caption, want)
	}
}
