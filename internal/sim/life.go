// Package sim is the project's deterministic simulation: one seed is one
// life of the bot, days of users and chats talking to it through the fake
// Bot API, with Telegram's faults, store outages and the daily crons on a
// simulated clock, and checkers over the whole history that fail with the
// seed and the first step that broke them. It runs the real core, modules
// and stores; nothing in it is a second bot.
package sim

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Config is one life: its seed, length and store.
type Config struct {
	Seed   uint64
	Days   int
	PerDay int // updates a day (about)
	Store  storage.KVProvider
	Trace  io.Writer // the history line by line (nil: none)
	// Known names the violations of known, reported bugs that the life
	// counts (Result.Known) and lives past, instead of stopping there.
	Known map[string]bool
	// Operator, when set, moves the bot between stores, snapshots and
	// restores them at moments the seed picks (operator.go); its Home must
	// be Config.Store.
	Operator *Operator
}

// ReplayedTrade names a top-up or trade applied twice: its confirmation
// refused by Telegram, the update redelivered and run again.
const ReplayedTrade = "replayed-trade"

// ReplayedGuess names the same replay in a game: a guess that ended it,
// its reply refused, starting a new game with itself on redelivery.
const ReplayedGuess = "replayed-guess"

// Result is what a life did and the digest of its history.
type Result struct {
	Updates int
	Known   map[string]string // a known violation -> where it first happened
	Summary string
	Digest  string
	// Users is the digest of what the users saw: the history without the
	// operator's lines, the same with or without an operator.
	Users string
	// Store is the store the bot ran on at the end (Config.Store, unless
	// the operator moved it).
	Store storage.KVProvider
}

// modules the life runs: everything that needs no paid API.
var modules = []string{"util", "misc", "lolschedule", "wordle", "loldle", "coin", "gold", "stock", "stats", "remind"}

// Start is the first simulated day, 00:00 UTC.
var Start = time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC)

// life is one run: the world, the bot, the fakes and the checkers' models.
type life struct {
	t     testing.TB
	cfg   Config
	r     *rand.Rand
	clk   *apptest.Clock
	fake  *telegramtest.Server
	wire  *wire
	store *storagetest.Switch
	app   *core.App // the first process's: the registry every process has
	logs  *logSink
	mkt   *markets
	world *world
	ids   ids
	hist  *history
	step  int
	day   int
	log   *slog.Logger
	apis  string               // the fake markets' address
	keys  *keyspace            // every key the bot wrote or deleted (keyspace.go)
	op    *operator            // nil: no operator
	rnd   *rand.Rand           // the modules' (wordle's words): a replay draws the same
	mk    *rand.Rand           // the users' gold, stock and loldle: their own stream, so the older seeds' lives keep their shape
	tm    *rand.Rand           // the users' reminders and alerts (timers.go): their own stream likewise
	cv    *rand.Rand           // how the users talk (typed guesses, conversations, anonymous admins): their own stream likewise
	next  map[string]time.Time // each cron job's next fire

	processes // the runtimes serving the life, and their failures

	outage    int               // delivery attempts left that find the store down
	known     map[string]string // known bugs met, and where first
	words     []string
	champions []string

	subs      *subsModel
	money     *moneyModel
	games     *gamesModel // wordle's
	lol       *gamesModel // loldle's
	stats     *statsModel
	timers    *timersModel
	langs     *langModel                 // who speaks which language (langs.go)
	miniApp   miniApp                    // the users opening the Mini App (miniapp.go)
	recent    []*delivery                // updates Telegram may deliver again
	keyboards map[int64]map[int]keyboard // chat -> message -> its buttons
}

// Run lives one life and fails t at the first broken invariant, naming the
// seed and the step.
func Run(t testing.TB, cfg Config) Result {
	t.Helper()
	l := newLife(t, cfg)
	for l.day = 0; l.day < cfg.Days; l.day++ {
		l.liveDay()
		l.endOfDay()
	}
	l.operate(Start.AddDate(0, 0, cfg.Days))
	l.checkKeyspace("life")
	l.checkEveryDayPushed()
	l.checkPushesAtEnd(Start.AddDate(0, 0, cfg.Days))
	l.checkTimersAtEnd(Start.AddDate(0, 0, cfg.Days))
	return Result{Updates: int(l.ids.update), Known: l.known, Summary: l.hist.summary(), Digest: l.hist.digest(), Users: l.hist.usersDigest(), Store: l.cfg.Store}
}

func newLife(t testing.TB, cfg Config) *life {
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	l := &life{t: t, cfg: cfg, r: r, clk: apptest.NewClock(Start), logs: newLogSink(), hist: newHistory(), next: map[string]time.Time{}, known: map[string]string{}, keyboards: map[int64]map[int]keyboard{}}
	l.hist.trace = cfg.Trace
	l.world = newWorld(r)
	l.langs = newLangModel(cfg.Seed)
	l.ids.codes = drawCodes(l.langs.r, l.world.users)
	// The markets draw from their own streams: a longer life starts as
	// the shorter one of the same seed did.
	l.mkt = newMarkets(cfg.Seed, l.clk.Now, Start, cfg.Days)
	l.words, l.champions = wordleWords(t), loldleChampions(t)
	l.mk = rand.New(rand.NewPCG(cfg.Seed, 0x6d6b7473))
	l.tm, l.timers = rand.New(rand.NewPCG(cfg.Seed, 0x74696d657273)), newTimersModel()
	l.cv = rand.New(rand.NewPCG(cfg.Seed, 0x636f6e76))
	l.fake = telegramtest.New(t, telegramtest.WithClock(l.clk.Now))
	l.wire = &wire{fake: l.fake}
	apis := httptest.NewServer(l.mkt)
	t.Cleanup(apis.Close)
	l.log, l.apis = slog.New(l.logs), apis.URL
	l.settings = map[string]string{
		"BINANCE_API_URL": apis.URL, "COINBASE_API_URL": apis.URL, "COINGECKO_API_URL": apis.URL,
		"LOLESPORTS_API_URL": apis.URL + "/persisted/gw", "LOLESPORTS_API_KEY": scheduleKey,
		"VNAPPMOB_API_URL": apis.URL + "/vnappmob", "EXCHANGE_RATE_API_URL": apis.URL + "/erapi",
		"KBS_API_URL": apis.URL + "/kbs", "VCI_API_URL": apis.URL + "/vci", "SSI_IBOARD_API_URL": apis.URL + "/ssi",
	}
	l.keys = newKeyspace(t, cfg.Store)
	l.rnd = app.LockedRand(rand.NewPCG(cfg.Seed, 0x776f72646c65))
	l.boot(cfg.Store)
	l.startProcesses(t, cfg.Seed)
	if o := cfg.Operator; o != nil {
		if o.Home.KVProvider != cfg.Store {
			t.Fatal("sim: Operator.Home must be Config.Store")
		}
		l.op = &operator{Operator: o, plan: newPlan(cfg.Seed, cfg.Days), sides: [2]Backend{o.Home, o.Far}}
		l.op.rw, l.op.rc = newWindows(cfg.Seed)
	}
	for _, j := range l.app.Registry().Crons() {
		l.next[j.Name] = j.Next(Start)
	}
	l.subs, l.money, l.games, l.lol = newSubsModel(), newMoneyModel(), newGamesModel("wordle"), newGamesModel("loldle")
	l.stats = newStatsModel()
	return l
}

// fail stops the life: the seed and the step reproduce it. A known bug
// is counted instead, and fail returns true for the model to resync.
func (l *life) fail(checker, format string, args ...any) bool {
	l.t.Helper()
	where := fmt.Sprintf("seed %d, step %d (day %d, %s): %s: %s", l.cfg.Seed, l.step, l.day, l.clk.Now().Format(time.RFC3339), checker, fmt.Sprintf(format, args...))
	if !l.cfg.Known[checker] {
		l.t.Fatal(where)
	}
	l.hist.count("known-"+checker, 1)
	if _, ok := l.known[checker]; !ok {
		l.known[checker] = where
	}
	return true
}

// liveDay runs one day: its steps at seeded times, the crons in between.
func (l *life) liveDay() {
	day := Start.AddDate(0, 0, l.day)
	n := l.cfg.PerDay/2 + l.r.IntN(l.cfg.PerDay+1)
	at := make([]time.Duration, n)
	for i := range at {
		at[i] = time.Duration(l.r.Int64N(int64(24 * time.Hour)))
	}
	slices.Sort(at)
	for _, d := range at {
		when := day.Add(d)
		l.fireCrons(when)
		if l.clk.Now().Before(when) {
			l.clk.Set(when)
		}
		l.operate(when)
		l.maybeSwitch()
		l.maybeBurst()
		l.act()
		l.maybeLanguage()
		l.maybeTimers()
		l.maybeMiniApp()
	}
	l.fireCrons(day.AddDate(0, 0, 1))
}
