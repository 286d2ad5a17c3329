package sim

import (
	"context"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// boot starts a bot process on p: its own Telegram client, core and cron
// dispatcher, behind a fresh outage switch and the keyspace recorder. A
// cutover, a rollback and a restore boot again, as the operator starts the
// other deployment; nothing but the store carries over.
func (l *life) boot(p storage.KVProvider) {
	l.t.Helper()
	// No pacing: the fake's 429s are the flood control under test, and a
	// wait moves the simulated clock instead of sleeping.
	client, err := telegram.New(l.fake.Token, telegram.WithAPIURL(l.botAPI), telegram.WithLogger(l.log),
		telegram.WithRates(rate.Inf, rate.Inf), telegram.WithGroupLimit(0, 0),
		telegram.WithWait(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		l.t.Fatal(err)
	}
	l.store = storagetest.NewSwitch(&recorder{KVProvider: p, ks: l.keys})
	l.app, err = core.New(l.store, client,
		core.WithModules(builtin.Catalogue(), modules...),
		core.WithRand(l.rnd), core.WithOwner(l.world.owner), core.WithBotUsername("miti99bot"), core.WithLogger(l.log), core.WithClock(l.clk.Now),
		core.WithSettings(map[string]string{
			"BINANCE_API_URL": l.apis, "COINBASE_API_URL": l.apis, "COINGECKO_API_URL": l.apis,
			"LOLESPORTS_API_URL": l.apis + "/persisted/gw", "LOLESPORTS_API_KEY": scheduleKey,
		}))
	if err != nil {
		l.t.Fatal(err)
	}
	l.disp = cron.NewDispatcher(l.app.Registry(), l.store.For(core.CoreNamespace), l.log, l.clk.Now)
}
