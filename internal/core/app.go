// Package core is miti99bot's engine: the registry of enabled modules,
// routing with visibility, the dedup claim and finish around every update,
// the command hooks, the deploy notice, command sync and health. Both
// runtimes (cmd/lambda, cmd/container) drive it through HandleUpdate; it
// imports no adapter and no storage backend. What a module sees is the
// module API, internal/app.
package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/timer"
)

// App is the bot: the registry over one storage provider and one Telegram
// client. It holds no state that matters across updates; that lives in the
// store, so any number of App instances (Lambda, container) can serve at once.
type App struct {
	reg      *Registry
	provider storage.KVProvider
	core     storage.KVStore
	bot      app.Messenger
	log      *slog.Logger
	now      func() time.Time
	ownerID  int64
	adminIDs []int64

	budget time.Duration // UpdateBudget, shorter in tests

	slotsFull atomic.Bool // the dedup slots hold earlier updates: see slotGuess

	metrics *metrics.Metrics // nil: none

	timers *timer.Engine // every module's timers (Deps.Timers)
	langs  langCache     // chats' language records read lately

	userMu   sync.Mutex
	username string // the bot's @username, for /cmd@Bot; resolved lazily
}

type options struct {
	factories []app.Factory
	enabled   []string
	settings  map[string]string
	logger    *slog.Logger
	now       func() time.Time
	http      *http.Client
	ownerID   int64
	adminIDs  []int64
	username  string
	budget    time.Duration
	metrics   *metrics.Metrics
	cronStat  func(context.Context) (string, error)
	jobs      []*app.Module // the runtime's own jobs (WithJobs)
	rand      *rand.Rand    // WithRand
	appURL    func() string // WithAppURL
}

// Option configures New.
type Option func(*options)

// WithModules sets the module catalogue and which of them run, in order
// (MODULES; empty means all of the catalogue).
func WithModules(catalogue []app.Factory, enabled ...string) Option {
	return func(o *options) { o.factories, o.enabled = catalogue, enabled }
}

// WithJobs adds cron jobs of the runtime's own (the container's
// snapshots) as a module named module that has nothing else, enabled
// whatever MODULES says; none adds nothing.
func WithJobs(module string, jobs ...app.Cron) Option {
	return func(o *options) {
		if len(jobs) > 0 {
			o.jobs = append(o.jobs, &app.Module{Name: module, Crons: jobs})
		}
	}
}

// WithMetrics records the core's metrics (updates by kind and outcome,
// handling time by command, deploy notices) into m.
func WithMetrics(m *metrics.Metrics) Option { return func(o *options) { o.metrics = m } }

// WithCronStatus hands the modules app.Deps.CronStatus: the cron package
// reads the jobs' records, which the core cannot import.
func WithCronStatus(f func(context.Context) (string, error)) Option {
	return func(o *options) { o.cronStat = f }
}

// WithAppURL hands the modules app.Deps.AppURL, the Mini App's address
// as the runtime knows it at the time asked.
func WithAppURL(f func() string) Option { return func(o *options) { o.appURL = f } }

// WithSettings passes module settings (each module sees its declared ones).
func WithSettings(s map[string]string) Option { return func(o *options) { o.settings = s } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithClock sets the clock the core and modules use.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithUpdateBudget replaces UpdateBudget (tests of an overrunning update).
func WithUpdateBudget(d time.Duration) Option { return func(o *options) { o.budget = d } }

// WithOwner sets OWNER_ID and ADMIN_IDS.
func WithOwner(owner int64, admins ...int64) Option {
	return func(o *options) { o.ownerID, o.adminIDs = owner, admins }
}

// WithBotUsername sets the bot's username, saving a getMe on the first
// /cmd@Bot mention.
func WithBotUsername(name string) Option {
	return func(o *options) { o.username = strings.TrimPrefix(name, "@") }
}

// New builds the registry and every enabled module. It fails with every
// problem of the module set at once.
func New(provider storage.KVProvider, bot app.Messenger, opts ...Option) (*App, error) {
	o := options{
		logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		now:    time.Now,
		http:   &http.Client{Timeout: 15 * time.Second},
		budget: defaultBudget,
		appURL: func() string { return "" },
	}
	for _, f := range opts {
		f(&o)
	}
	a := &App{
		reg:      &Registry{},
		provider: provider,
		core:     provider.For(storage.CoreNamespace),
		log:      o.logger,
		now:      o.now,
		ownerID:  o.ownerID,
		adminIDs: o.adminIDs,
		username: o.username,
		budget:   o.budget,
		metrics:  o.metrics,
	}
	a.bot = chatWatch{Messenger: bot, a: a} // a moved or gone chat tells the modules
	a.timers = newTimers(a, o.logger, o.rand)
	factories, err := selectFactories(o.factories, o.enabled)
	if err != nil {
		return nil, err
	}
	a.reg.disabledJobs = disabledJobs(o.factories, factories)
	mods := make([]*app.Module, 0, len(factories))
	var undeclared []error // every problem of the module set is reported at once
	for _, f := range factories {
		settings := map[string]string{}
		for _, s := range f.Settings {
			v, ok := o.settings[s.Name]
			if !ok || v == "" {
				v = s.Default
			}
			settings[s.Name] = v
		}
		m, err := f.New(app.Deps{
			Store:      provider.For(f.Name),
			Bot:        a.bot,
			Now:        o.now,
			HTTP:       o.http,
			Settings:   settings,
			Log:        o.logger.With("module", f.Name),
			Registry:   a.reg,
			OwnerID:    o.ownerID,
			CronStatus: o.cronStat,
			Rand:       o.rand,
			Timers:     a.timers.For(f.Name),
			AppURL:     o.appURL,
			Texts:      moduleTexts{a: a, module: f.Name},

			Conversations: moduleConversations{a: a, module: f.Name},
		})
		if err != nil {
			return nil, fmt.Errorf("module %q: %w", f.Name, err)
		}
		if m.Name != f.Name {
			return nil, fmt.Errorf("module %q: factory built a module named %q", f.Name, m.Name)
		}
		undeclared = append(undeclared, checkJobs(f, m))
		mods = append(mods, m)
	}
	mods = append(mods, o.jobs...)
	if slices.ContainsFunc(mods, func(m *app.Module) bool { return m.OnTimer != nil || len(m.Steps) > 0 }) {
		mods = append(mods, a.timersModule())
	} else {
		a.reg.disabledJobs[TimersJob] = TimersJob // its schedule fires for nothing
	}
	if err := errors.Join(append(undeclared, a.reg.register(mods))...); err != nil {
		return nil, err
	}
	for i, job := range a.reg.crons {
		a.reg.crons[i].Handler = a.skipDamaged(job)
	}
	return a, nil
}

// Registry returns the enabled modules.
func (a *App) Registry() *Registry { return a.reg }

// Messenger is what the core and its modules send through: a send whose
// answer says a chat moved or is gone tells the modules.
func (a *App) Messenger() app.Messenger { return a.bot }

func (a *App) roleOf(userID int64) app.Role {
	switch {
	case userID != 0 && userID == a.ownerID:
		return app.RoleOwner
	case userID != 0 && slices.Contains(a.adminIDs, userID):
		return app.RoleAdmin
	}
	return app.RoleUser
}

// botUsername returns the bot's username, asking Telegram once if needed.
func (a *App) botUsername(ctx context.Context) (string, error) {
	a.userMu.Lock()
	defer a.userMu.Unlock()
	if a.username != "" {
		return a.username, nil
	}
	me, err := a.bot.GetMe(ctx)
	if err != nil {
		return "", fmt.Errorf("resolve the bot's username: %w", err)
	}
	a.username = me.Username
	return a.username, nil
}

// WithRand gives the modules src as their random source (app.Deps.Rand),
// locked for concurrent use: a seeded life draws the same words.
func WithRand(src rand.Source) Option { return func(o *options) { o.rand = app.LockedRand(src) } }
