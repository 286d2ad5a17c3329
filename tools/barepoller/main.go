// Command barepoller is the smallest go-telegram/bot long-polling bot that
// answers /ping: the baseline the container's idle memory is compared with
// (BenchmarkIdleRSS in cmd/container). TELEGRAM_BOT_TOKEN and
// TELEGRAM_API_URL say where to poll.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := bot.New(os.Getenv("TELEGRAM_BOT_TOKEN"), bot.WithServerURL(os.Getenv("TELEGRAM_API_URL")),
		bot.WithDefaultHandler(func(ctx context.Context, b *bot.Bot, u *models.Update) {
			if u.Message != nil && u.Message.Text == "/ping" {
				_, _ = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: "pong"})
			}
		}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b.Start(ctx)
}
