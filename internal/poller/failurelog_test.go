package poller_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// An update that fails on the store is tried again, and each failure is
// logged once, by the core that both runtimes share: the poller says it
// retries, not the cause a second time.
func TestAPolledUpdateThatFailsOnTheStoreLogsItsCauseOnce(t *testing.T) {
	tests := []struct {
		name, text string
		down       bool // the bot's store is down before the update comes
	}{
		{"the store is down: the claim fails", "/ping", true},
		{"the store fails in the module's run", "/note", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sw *storagetest.Switch
			bot := apptest.New(t, []app.Factory{apptest.StoreFails(&sw)})
			sw = bot.Store
			bot.Store.SetDown(tt.down)
			retrying := make(chan struct{}, 1)
			wait := func(ctx context.Context, _ time.Duration) error { // the first retry waits until the stop
				select {
				case retrying <- struct{}{}:
				default:
				}
				<-ctx.Done()
				return ctx.Err()
			}
			id := bot.Srv.Push(telegramtest.Text(apptest.PrivateChat, apptest.User, tt.text))[0]
			stop := start(t, poller.New(bot.Client, store(), bot.App.HandleUpdate, poller.WithLogger(bot.Log), poller.WithWait(wait), poller.WithLongPoll(time.Second)))
			select {
			case <-retrying:
			case <-testenv.Context(t).Done():
				t.Fatal("the update never failed")
			}
			stop()
			var lines []string
			for line := range strings.Lines(bot.Logs.String()) {
				if strings.Contains(line, `"update_id":`+strconv.FormatInt(id, 10)+",") && strings.Contains(line, storagetest.ErrDown.Error()) {
					lines = append(lines, line)
				}
			}
			if len(lines) != 1 || !strings.Contains(lines[0], `"level":"ERROR"`) && !strings.Contains(lines[0], `"level":"WARN"`) {
				t.Fatalf("want one ERROR or WARN line with the update's id and the store's error, got %d:\n%s", len(lines), bot.Logs.String())
			}
		})
	}
}
