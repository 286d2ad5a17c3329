package coin

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/modules/util"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const usage = "Usage: /coin_alert <coin> above|below <price>, e.g. /coin_alert BTC above 120000"

// Setting an alert: each bad input gets a clear answer and sets nothing.
func TestSettingAnAlert(t *testing.T) {
	tests := []struct{ name, command, reply string }{
		{"no arguments", "/coin_alert", usage},
		{"a symbol only", "/coin_alert BTC", usage},
		{"a missing level", "/coin_alert BTC above", "Missing the price level. " + usage},
		{"neither above nor below", "/coin_alert BTC over 5", "Say above or below, then the price: " + usage},
		{"too many words", "/coin_alert BTC above 5 please", usage},
		{"not a symbol", "/coin_alert B$C above 5", `Not a coin symbol: "B$C".`},
		{"an unknown symbol", "/coin_alert NOPE above 5", "Unknown coin: NOPE."},
		{"a zero level", "/coin_alert BTC below 0", `The level must be a positive number, e.g. 120000; not "0".`},
		{"a negative level", "/coin_alert BTC below -5", `The level must be a positive number, e.g. 120000; not "-5".`},
		{"NaN", "/coin_alert BTC above NaN", `The level must be a positive number, e.g. 120000; not "NaN".`},
		{"Infinity", "/coin_alert BTC above Infinity", `The level must be a positive number, e.g. 120000; not "Infinity".`},
		{"a huge level", "/coin_alert BTC above 1e400", "That level is too large: at most $100,000,000.00."},
		{"a level no coin reaches", "/coin_alert BTC above 1e15", "That level is too large: at most $100,000,000.00."},
		{"a level too small for any coin", "/coin_alert PEPE below 0.0000000000001", "That level is too small: at least $0.000000000001."},
		{"a tiny exponent", "/coin_alert BTC above 1e-999999999", `The level must be a positive number, e.g. 120000; not "1e-999999999".`},
		{"too many decimals", "/coin_alert PEPE above 0.0000000000015", "Too many decimal places in the level: at most 12."},
		{"a level already passed", "/coin_alert BTC above 50000", "BTC is already above $50,000.00: $60,000.50 now (Binance). An alert waits for the price to cross its level."},
		{"above", "/coin_alert btc above 120000", "🔔 Alert set: BTC above $120,000.00 (now $60,000.50, Binance). It fires once, here, when the price crosses it. /coin_alerts lists yours."},
		{"below, a small coin", "/coin_alert PEPE below 0.000001", "🔔 Alert set: PEPE below $0.000001 (now $0.00001234, Binance). It fires once, here, when the price crosses it. /coin_alerts lists yours."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _, _ := setup(t)
			b.Expect(apptest.PrivateChat, apptest.User, tt.command, tt.reply)
			want := "You have no coin alerts. Set one: /coin_alert BTC above 120000"
			if strings.HasPrefix(tt.reply, "🔔") {
				want = "Your coin alerts (1 of at most 20):\n1. " + strings.TrimSuffix(strings.TrimPrefix(strings.Split(tt.reply, " (now")[0], "🔔 Alert set: "), ".")
			}
			b.Expect(apptest.PrivateChat, apptest.User, "/coin_alerts", want)
		})
	}
}

// At most 20 alerts a user; a redelivered command sets one alert.
func TestAlertsAreCappedAndSetOnce(t *testing.T) {
	b, f, _ := setup(t)
	for i := range 20 {
		b.MustSay(apptest.PrivateChat, apptest.User, fmt.Sprintf("/coin_alert BTC above %d", 100000+i))
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_alert ETH below 10", "You have 20 coin alerts, the most one may set: cancel one in /coin_alerts first.")
	b, f, _ = setup(t)
	u := telegramtest.Text(apptest.PrivateChat, apptest.User, "/coin_alert ETH below 10")
	u.ID = 77
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := b.Handle(u); err == nil {
		t.Fatal("the reply failed: the update must fail")
	}
	before := f.total()
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if f.total() != before || !strings.HasPrefix(b.Last(), "🔔 Alert set: ETH below $10.00") {
		t.Fatalf("the redelivery: %d price calls, reply %q; want the kept reply, no call", f.total()-before, b.Last())
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_alerts", "Your coin alerts (1 of at most 20):\n1. ETH below $10.00")
}

// An alert set in a forum topic fires there, once, on the job's schedule,
// naming the price, its source and its time; its Cancel button then says
// it fired, and only its owner may press it.
func TestAnAlertFiresIntoItsTopic(t *testing.T) {
	b, f, clk := setup(t)
	u := telegramtest.Text(apptest.Group, apptest.User, "/coin_alert BTC above 61000")
	u.Message.MessageThreadID, u.Message.IsTopicMessage = 9, true
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	b.MustSay(apptest.Group, apptest.User, "/coin_alerts")
	if got := b.Buttons(apptest.Group); got != "[❌ Cancel BTC above $61,000.00]" {
		t.Fatalf("buttons %q", got)
	}
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	data := rows[0][0].CallbackData
	if toast, _, err := b.PressData(apptest.Group, apptest.Admin, id, data); err != nil || toast != "This is someone else's alert: yours are in /coin_alerts." {
		t.Fatalf("someone else's press: %q, %v", toast, err)
	}
	fire := func() {
		t.Helper()
		slot := clk.Now().Truncate(time.Minute)
		out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_alerts", slot)
		if err != nil || out != cron.Ran {
			t.Fatalf("the check: %v, %v", out, err)
		}
		if _, err := b.App.Timers().Tick(t.Context()); err != nil { // a crossing's alert goes through its timer
			t.Fatal(err)
		}
	}
	clk.Add(time.Minute)
	fire()
	sends := len(b.Srv.Calls("sendMessage"))
	f.mu.Lock()
	f.prices["BTC"] = "61000"
	f.mu.Unlock()
	clk.Add(time.Minute)
	fire()
	clk.Add(time.Minute)
	fire()
	calls := b.Srv.Calls("sendMessage")[sends:]
	if len(calls) != 1 {
		t.Fatalf("%d messages after the crossing; want 1", len(calls))
	}
	want := "🔔 BTC rose to or above $61,000.00: $61,000.00 (Binance, 29 Nov 2026 19:02 ICT).\nAlert set by User; it is now removed."
	if calls[0].Params["text"] != want || calls[0].Params["message_thread_id"] != "9" {
		t.Fatalf("fired %q into topic %q\nwant %q into topic 9", calls[0].Params["text"], calls[0].Params["message_thread_id"], want)
	}
	clk.Add(24 * time.Hour)
	if toast, _, err := b.PressData(apptest.Group, apptest.User, id, data); err != nil || toast != "This alert is gone: fired on 29 Nov 2026 19:02 ICT." {
		t.Fatalf("the Cancel pressed the next day: %q, %v", toast, err)
	}
}

// An alert set in a forum topic closed since fires into the group itself,
// as a reminder does: Telegram's TOPIC_CLOSED answer is no reason to drop it.
func TestAnAlertInATopicClosedSinceFiresIntoTheGroup(t *testing.T) {
	b, f, clk := setup(t)
	u := telegramtest.Text(apptest.Group, apptest.User, "/coin_alert BTC above 61000")
	u.Message.MessageThreadID, u.Message.IsTopicMessage = 9, true
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	b.Srv.CloseTopic(apptest.Group, 9)
	f.mu.Lock()
	f.prices["BTC"] = "61000"
	f.mu.Unlock()
	clk.Add(time.Minute)
	sends := len(b.Srv.Calls("sendMessage"))
	out, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_alerts", clk.Now().Truncate(time.Minute))
	if err != nil || out != cron.Ran {
		t.Fatalf("the check: %v, %v", out, err)
	}
	if _, err := b.App.Timers().Tick(t.Context()); err != nil { // a crossing's alert goes through its timer
		t.Fatal(err)
	}
	calls := b.Srv.Calls("sendMessage")[sends:]
	last := calls[len(calls)-1]
	if !strings.HasPrefix(last.Params["text"], "🔔 BTC rose to or above $61,000.00") || last.Params["message_thread_id"] != "" || last.Params["chat_id"] != strconv.FormatInt(apptest.Group, 10) {
		t.Fatalf("the alert went %+v; want it in the group itself", last.Params)
	}
	b.Expect(apptest.Group, apptest.User, "/coin_alerts", "You have no coin alerts set in this group. Set one: /coin_alert BTC above 120000")
}

// The commands are in /help.
func TestTheAlertsAndBoardAreInHelp(t *testing.T) {
	b := apptest.New(t, []app.Factory{util.Factory, factory})
	b.MustSay(apptest.PrivateChat, apptest.User, "/help")
	help := strings.Join(b.Replies(), "\n")
	for _, c := range []string{"/coin_alert ", "/coin_alerts ", "/coin_top "} {
		if !strings.Contains(help, c) {
			t.Errorf("/help lacks %s:\n%s", c, help)
		}
	}
}
