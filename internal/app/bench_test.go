package app_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// BenchmarkHandlePing measures one /ping through the whole core (dedup
// claim and finish, routing, the module's store write, the reply over HTTP
// to the fake Bot API) next to a bare go-telegram/bot handler sending the
// same reply to the same server. The ratio is the core's overhead.
func BenchmarkHandlePing(b *testing.B) {
	srv := telegramtest.New(b)
	ctx := context.Background()

	b.Run("core", func(b *testing.B) {
		// No flood control in the way: the benchmark measures the core.
		client, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(rate.Inf, rate.Inf))
		if err != nil {
			b.Fatal(err)
		}
		a, err := app.New(memory.New(), client, app.WithModules(builtin.Catalogue()), app.WithBotUsername("miti99bot"),
			app.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		if err != nil {
			b.Fatal(err)
		}
		var id int64
		for b.Loop() {
			id++
			if err := a.HandleUpdate(ctx, withID(telegramtest.Text(benchChat, 3, "/ping"), id)); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("bare", func(b *testing.B) {
		tb, err := bot.New(srv.Token, bot.WithServerURL(srv.URL), bot.WithSkipGetMe(), bot.WithNotAsyncHandlers(),
			bot.WithDefaultHandler(func(context.Context, *bot.Bot, *models.Update) { b.Fatal("the bare handler did not match") }))
		if err != nil {
			b.Fatal(err)
		}
		tb.RegisterHandler(bot.HandlerTypeMessageText, "ping", bot.MatchTypeCommandStartOnly, func(ctx context.Context, tb *bot.Bot, u *models.Update) {
			if _, err := tb.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: "pong"}); err != nil {
				b.Fatal(err)
			}
		})
		var id int64
		for b.Loop() {
			id++
			tb.ProcessUpdate(ctx, withID(telegramtest.Text(benchChat, 3, "/ping"), id))
		}
	})
}

const benchChat = private
