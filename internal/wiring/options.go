package wiring

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/stores"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// Options say what differs between the runtimes at construction.
type Options struct {
	Runtime string // RuntimeLambda or RuntimeContainer
	Getenv  func(string) string
	// Logs receives the JSON log lines.
	Logs io.Writer
	// Require lists variables this runtime cannot start without, on top of
	// TELEGRAM_BOT_TOKEN (needed unless Console is set).
	Require []string
	// Console, when set, makes the bot talk to this terminal instead of
	// Telegram: no token, no call to Telegram, and the person at the
	// terminal owns the bot unless OWNER_ID says otherwise.
	Console io.Writer
	// AWS is where SSM and DynamoDB get their AWS configuration: the
	// Lambda main passes awsenv.Lambda, the others defaultchain.Load (wiring
	// imports neither chain, so the Lambda binary links only its own).
	AWS awsenv.Source
	// Metrics, when set, is where the metric set goes, given the loaded
	// configuration (nil: no metrics): EMF lines on Lambda, Prometheus on
	// the container when METRICS_ENABLED.
	Metrics func(*config.Config) metrics.Sink
	// Stores are the backends this runtime opens (nil: the memory store
	// only): the container's is every backend (backend.Every), the Lambda's
	// DynamoDB and memory, so its binary links no other driver.
	Stores stores.Set
	// Store adjusts how the store is opened (Lambda: stores.WithoutTableCheck).
	Store []stores.Option
	// Check, when set, runs on the store once opened, before anything reads
	// it; its error stops the start (the container: a store a restore was
	// cut short in).
	Check func(ctx context.Context, store storage.KVProvider, log *slog.Logger) error
	// Jobs, when set, are the runtime's own cron jobs beside the modules'
	// (the container's snapshots), given the store as opened: not
	// metered, as a snapshot's reads are no operation of the bot's.
	Jobs func(cfg *config.Config, store storage.KVProvider, m *metrics.Metrics, log *slog.Logger) []app.Cron

	// What a test composes the bot over (the simulation): nil or empty in
	// production.

	// Provider, when set, is the store, already open, in place of the
	// configured backend (Store is then unused); Close closes it.
	Provider storage.KVProvider
	// Log, when set, is the logger in place of JSON lines to Logs.
	Log *slog.Logger
	// Now is the clock of the core, the cron dispatcher, the cron route
	// and the Mini App's initData (nil: time.Now).
	Now func() time.Time
	// Core and Telegram are further options of the core (a seeded rand)
	// and of the Telegram client (its pacing).
	Core     []core.Option
	Telegram []telegram.Option
}
