package core_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// BenchmarkHandlePing measures one /ping through the whole core (dedup
// claim and finish, routing, the module's store write, the reply over HTTP
// to the fake Bot API) next to a bare go-telegram/bot handler sending the
// same reply to the same server. The ratio is the core's overhead, on the
// embedded file a self-hosted container runs (bolt: every write a commit
// with its fsync) and, for the allocations alone, on the memory store.
func BenchmarkHandlePing(b *testing.B) {
	srv := telegramtest.New(b)
	file := func(b *testing.B) storage.KVProvider {
		p, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = p.Close(context.Background()) })
		return p
	}
	// Each alone, for its allocations; then interleaved, for the ratio.
	b.Run("core", func(b *testing.B) { loop(b, corePing(b, srv, memory.New())) })
	b.Run("bare", func(b *testing.B) { loop(b, barePing(b, srv)) })
	b.Run("interleaved-bolt", func(b *testing.B) {
		testenv.SideBySide(b, testenv.Side{Name: "core", Run: corePing(b, srv, file(b))}, testenv.Side{Name: "bare", Run: barePing(b, srv)})
	})
}

func loop(b *testing.B, f func() error) {
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
}

// corePing handles one /ping through the core, a new update each call.
func corePing(b *testing.B, srv *telegramtest.Server, store storage.KVProvider) func() error {
	// No flood control in the way: the benchmark measures the core.
	client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(rate.Inf, rate.Inf))
	if err != nil {
		b.Fatal(err)
	}
	a, err := core.New(store, client, core.WithModules(builtin.Catalogue()), core.WithBotUsername("miti99bot"),
		core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		b.Fatal(err)
	}
	var id int64
	return func() error {
		id++
		return a.HandleUpdate(context.Background(), withID(telegramtest.Text(benchChat, 3, "/ping"), id))
	}
}

// barePing handles one /ping with a bare go-telegram/bot handler sending
// the same reply to the same server.
func barePing(b *testing.B, srv *telegramtest.Server) func() error {
	var sendErr error
	tb, err := bot.New(srv.Token, bot.WithServerURL(srv.URL), bot.WithSkipGetMe(), bot.WithNotAsyncHandlers(),
		bot.WithDefaultHandler(func(context.Context, *bot.Bot, *models.Update) {
			sendErr = errors.New("the bare handler did not match")
		}))
	if err != nil {
		b.Fatal(err)
	}
	tb.RegisterHandler(bot.HandlerTypeMessageText, "ping", bot.MatchTypeCommandStartOnly, func(ctx context.Context, tb *bot.Bot, u *models.Update) {
		_, sendErr = tb.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: "pong"})
	})
	var id int64
	return func() error {
		id++
		sendErr = nil
		tb.ProcessUpdate(context.Background(), withID(telegramtest.Text(benchChat, 3, "/ping"), id))
		return sendErr
	}
}

const benchChat = private
