package trading

import (
	"context"
	"fmt"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// An alert set in a forum topic that was closed (or deleted) since goes
// to the group itself, as a reminder does, once; it is not dropped.
func TestAnAlertInAClosedTopicGoesToTheGroup(t *testing.T) {
	for _, refusal := range []error{
		fmt.Errorf("topic_closed: %w: %w", app.ErrSendRefused, app.ErrRejected),
		fmt.Errorf("message thread not found: %w: %w", app.ErrSendRefused, app.ErrThreadNotFound),
	} {
		ctx := context.Background()
		s := memory.New().For("coin")
		clk := &clock{t: alertNow}
		bot := &sentBot{}
		a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
		arm(t, a, 1, "BTC", true, "120000", -100) // in topic 5
		bot.fail = func() error {
			if n := len(bot.sent); n == 0 && bot.lastThread != 0 {
				return refusal
			}
			return nil
		}
		for range 2 {
			if err := a.checkThenTick(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if len(bot.sent) != 1 || bot.sent[0].ChatID != -100 || bot.sent[0].ThreadID != 0 {
			t.Fatalf("%v: sent %+v; want the alert once, to the group itself", refusal, bot.sent)
		}
		if n := pending(t, a, 1); n != 0 {
			t.Fatalf("%v: %d alerts left; want it removed once delivered", refusal, n)
		}
	}
}
