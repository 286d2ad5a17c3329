package sim

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/container"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// wiring is how p is built: by the runtimes' own composition, from the
// environment a deployment of its kind would have, over the life's store,
// clock and Bot API front.
func (l *life) wiring(p *proc) wiring.Options {
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN":      l.fake.Token,
		"TELEGRAM_API_URL":        l.front.url + "/p/" + p.name,
		"TELEGRAM_BOT_USERNAME":   "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret,
		"CRON_SHARED_SECRET":      cronSecret,
		"OWNER_ID":                strconv.FormatInt(l.world.owner, 10),
		"MODULES":                 strings.Join(modules, ","),
	}
	for k, v := range l.settings {
		env[k] = v
	}
	o := wiring.Options{
		Runtime: wiring.RuntimeContainer, Jobs: container.Jobs, Check: container.RefuseUnfinishedRestore,
		Getenv:   func(k string) string { return env[k] },
		Provider: &procStore{p: p, KVProvider: l.store},
		Log:      slog.New(&procLog{Handler: l.logs, p: p}),
		Now:      l.clk.Now,
		Core:     []core.Option{core.WithRand(l.rnd)},
		// No pacing: the fake's 429s are the flood control under test, and
		// a wait moves nothing: a retry is the next call.
		Telegram: []telegram.Option{telegram.WithRates(rate.Inf, rate.Inf), telegram.WithGroupLimit(0, 0),
			telegram.WithWait(func(context.Context, time.Duration) error { return nil })},
	}
	if p.kind == rtLambda {
		o.Runtime, o.Jobs, o.Check, o.Require = wiring.RuntimeLambda, nil, nil, []string{"TELEGRAM_WEBHOOK_SECRET"}
	}
	return o
}
