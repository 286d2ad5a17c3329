// Package wiring builds the bot the same way for every runtime: the
// configuration, the logger, the store, the Telegram client, the core, the
// cron dispatcher and the HTTP handler. A cmd/* main calls Build and then
// does only what is truly different about its runtime; the simulation
// (internal/sim) builds each of its processes with it too.
package wiring

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/console"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/metered"
	"github.com/miti99bot/miti99bot/internal/storage/stores"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// storeCloseBudget bounds closing the store at exit.
const storeCloseBudget = 5 * time.Second

// The runtimes.
const (
	RuntimeLambda    = "lambda"
	RuntimeContainer = "container"
)

// Bot is the built bot.
type Bot struct {
	Config *config.Config
	Log    *slog.Logger
	Store  storage.KVProvider
	// Client is the Telegram client; nil in console mode.
	Client *telegram.Client
	// Console is the terminal the bot talks to in console mode; else nil.
	Console    *console.Messenger
	App        *core.App
	Dispatcher *cron.Dispatcher
	// HTTP is the one HTTP surface (health, webhook, cron route).
	HTTP http.Handler
	// Metrics is the metric set the parts record into; nil: none. Where it
	// goes (Options.Metrics' sink) the runtime keeps, as the type it serves
	// or flushes.
	Metrics *metrics.Metrics

	healthMu sync.Mutex
	checks   []func(context.Context) error
	appToken string           // signs the Mini App's initData (see miniApp)
	now      func() time.Time // the clock initData's auth_date is signed and held to
	appURL   atomic.Value     // string: the Mini App's URL (see AppURL)
}

// AddHealth adds a check to /healthz, after the core's own (the store):
// the container adds its poller, which Lambda does not have.
func (b *Bot) AddHealth(check func(context.Context) error) {
	b.healthMu.Lock()
	defer b.healthMu.Unlock()
	b.checks = append(b.checks, check)
}

// health runs the core's check, then the runtime's. A degraded core (a
// damaged item) is said only when nothing has failed.
func (b *Bot) health(ctx context.Context) error {
	degraded := b.App.Health(ctx)
	if degraded != nil && !core.IsDegraded(degraded) {
		return degraded
	}
	b.healthMu.Lock()
	checks := slices.Clone(b.checks)
	b.healthMu.Unlock()
	for _, check := range checks {
		if err := check(ctx); err != nil {
			return err
		}
	}
	return degraded
}

// Settings are the settings of every module in the built-in catalogue.
func Settings() []app.Setting {
	var out []app.Setting
	for _, f := range builtin.Catalogue() {
		out = append(out, f.Settings...)
	}
	return out
}

// LoadConfig reads the configuration of the built-in modules from getenv.
func LoadConfig(ctx context.Context, getenv func(string) string, aws awsenv.Source, require ...string) (*config.Config, error) {
	return config.Load(ctx, config.Options{Getenv: getenv, Settings: Settings(), Require: require, AWS: aws})
}

// NewClient is the Telegram client cfg describes.
func NewClient(cfg *config.Config, log *slog.Logger, opts ...telegram.Option) (*telegram.Client, error) {
	return telegram.New(cfg.TelegramToken.Reveal(), append([]telegram.Option{telegram.WithAPIURL(cfg.TelegramAPIURL), telegram.WithLogger(log)}, opts...)...)
}

// NewApp builds the core with cfg's modules, owner and settings over store.
func NewApp(cfg *config.Config, store storage.KVProvider, bot app.Messenger, log *slog.Logger, opts ...core.Option) (*core.App, error) {
	return core.New(store, bot, append([]core.Option{
		core.WithModules(builtin.Catalogue(), cfg.Modules...),
		core.WithOwner(cfg.OwnerID, cfg.AdminIDs...),
		core.WithSettings(cfg.ModuleSettings()),
		core.WithBotUsername(cfg.BotUsername),
		core.WithLogger(log)}, opts...)...)
}

// Build reads the configuration and builds everything, in order. On error
// nothing is left open.
func Build(ctx context.Context, o Options) (*Bot, error) {
	require := o.Require
	if o.Console == nil {
		require = append([]string{"TELEGRAM_BOT_TOKEN"}, require...)
	}
	cfg, err := config.Load(ctx, config.Options{Getenv: o.Getenv, Settings: Settings(), Require: require, Lambda: o.Runtime == RuntimeLambda, AWS: o.AWS})
	if err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = logging.New(o.Logs, cfg.LogLevel, cfg.Secrets())
	}
	log.Info("starting", "runtime", o.Runtime, "console", o.Console != nil, "git_sha", buildinfo.Commit(), "config", cfg)

	b := &Bot{Config: cfg, Log: log}
	if o.Metrics != nil {
		if sink := o.Metrics(cfg); sink != nil {
			b.Metrics = metrics.New(sink)
		}
	}
	var bot app.Messenger
	if o.Console != nil {
		b.Console = console.NewMessenger(o.Console)
		bot = b.Console
		if cfg.OwnerID == 0 {
			cfg.OwnerID = console.UserID
		}
	} else {
		if b.Client, err = NewClient(cfg, log, append([]telegram.Option{telegram.WithMetrics(b.Metrics)}, o.Telegram...)...); err != nil {
			return nil, err
		}
		bot = b.Client
	}
	if b.Store, err = openStore(ctx, cfg, log, o); err != nil {
		return nil, err
	}
	if o.Check != nil {
		if err := o.Check(ctx, b.Store, log); err != nil {
			b.Close()
			return nil, err
		}
	}
	var jobs []app.Cron
	if o.Jobs != nil {
		jobs = o.Jobs(cfg, b.Store, b.Metrics, log)
	}
	b.Store = metered.Wrap(b.Store, cfg.Backend, b.Metrics)
	store, cronStore := stores.Describe(cfg), b.Store.For(storage.CoreNamespace)
	// The dispatcher, built after the app, knows the enabled jobs; the
	// command runs only once both exist.
	cronStatus := core.WithCronStatus(func(ctx context.Context) (string, error) {
		st, err := b.Dispatcher.Statuses(ctx)
		return cron.ChatText(store, cron.Redacted(st, cfg.Secrets()...)), err
	})
	b.appURL.Store(cfg.AppURL)
	now, coreOpts := time.Now, []core.Option{core.WithMetrics(b.Metrics), cronStatus, core.WithJobs(o.Runtime, jobs...), core.WithAppURL(b.AppURL)}
	if o.Now != nil {
		now, coreOpts = o.Now, append(coreOpts, core.WithClock(o.Now))
	}
	coreOpts = append(coreOpts, o.Core...)
	if b.App, err = NewApp(cfg, b.Store, bot, log, coreOpts...); err != nil {
		b.Close()
		return nil, err
	}
	b.Dispatcher = cron.NewDispatcher(b.App.Registry(), cronStore, log, now, cron.WithMetrics(b.Metrics))
	b.HTTP = b.learnAppURL(httpapi.NewHandler(httpapi.Config{
		Handle: b.App.HandleUpdate, Health: b.health, Dispatcher: b.Dispatcher, Store: store, Secrets: cfg.Secrets(),
		WebhookSecret: cfg.WebhookSecret.Reveal(), CronSecret: cfg.CronSecret.Reveal(), Log: log, Now: now,
		App: b.miniApp(o.Console != nil, now),
	}))
	return b, nil
}

// openStore is the store Options.Provider hands over, or else the
// configured backend, opened from the runtime's set.
func openStore(ctx context.Context, cfg *config.Config, log *slog.Logger, o Options) (storage.KVProvider, error) {
	if o.Provider != nil {
		return o.Provider, nil
	}
	set := o.Stores
	if set == nil {
		set = stores.Set{config.BackendMemory: stores.Memory}
	}
	return set.Open(ctx, cfg, log, o.Store...)
}

// Close closes the store, within a short budget of its own: it runs at
// exit, when the caller's context may already be done.
func (b *Bot) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), storeCloseBudget)
	defer cancel()
	if err := b.Store.Close(ctx); err != nil {
		b.Log.Warn("closing the store", "err", err)
	}
}
