package coin

import (
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const (
	askSymbol = "Which symbol? (/cancel stops)"
	askBuy    = "How much USD? e.g. 100"
	askSell   = "How much? A quantity, e.g. 0.5, or all"
)

func TestBuyAloneAsksTheSymbolThenTheAmountAndBuysOnce(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/coin_topup 1000", Want: "Topped up $1,000.00. Cash: $1,000.00."},
		{Text: "/coin_buy", Want: askSymbol},
		{Text: "b$c", Want: "Not a symbol: \"b$c\". " + askSymbol},
		{Text: "btc", Want: "BTC: " + askBuy},
	})
	for range 2 { // Telegram delivers the answer twice
		u := telegramtest.Text(apptest.PrivateChat, apptest.User, "100")
		u.ID = 770001
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
	}
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/coin_stats", Want: "0.00166665 BTC: $100.00 (cost $100.00, P/L $0.00)\nCash: $900.00\nTotal: $1,000.00 (invested $1,000.00, P/L $0.00)"},
		{Text: "200", Want: "I only understand commands here: /help lists them."},
	})
}

func TestSellAloneOffersTheHoldingsAsButtons(t *testing.T) {
	b, _, _ := setup(t)
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy ETH 300")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy BTC 100")
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_sell", askSymbol)
	if got := b.Buttons(apptest.PrivateChat); got != "[BTC] [ETH]" {
		t.Fatalf("buttons %q, want the holdings", got)
	}
	if _, err := b.Press(apptest.PrivateChat, apptest.User, "ETH"); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "ETH: "+askSell {
		t.Fatalf("got %q", got)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "all", "Sold 0.1 ETH at $3,000.00 for $300.00. Cash: $900.00.")
}

func TestCancelStopsATradeQuestion(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/coin_buy", Want: askSymbol},
		{Text: "/cancel", Want: "Cancelled."},
		{Text: "btc", Want: "I only understand commands here: /help lists them."},
	})
}

func TestTradeQuestionsInAGroupAreForcedReplies(t *testing.T) {
	b, _, _ := setup(t)
	b.MustSay(apptest.Group, apptest.User, "/coin_topup 1000")
	b.MustSay(apptest.Group, apptest.User, "/coin_buy BTC 100")
	b.Expect(apptest.Group, apptest.User, "/coin_sell", askSymbol+"\nYou hold: BTC.")
	forced := func() {
		t.Helper()
		if m := b.Srv.Messages(); !strings.Contains(m[len(m)-1].ReplyMarkup, `"force_reply":true`) {
			t.Fatalf("markup %q, want a forced reply", m[len(m)-1].ReplyMarkup)
		}
	}
	forced()
	reply := func(text, want string) {
		t.Helper()
		u := telegramtest.Text(apptest.Group, apptest.User, text)
		u.Message.ReplyToMessage = &models.Message{ID: 1, Chat: u.Message.Chat, From: &models.User{ID: 99, IsBot: true, Username: "miti99bot"}}
		if err := b.Handle(u); err != nil {
			t.Fatal(err)
		}
		if got := b.Last(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	reply("BTC", "BTC: "+askSell)
	forced()
	reply("all", "Sold 0.00166665 BTC at $60,000.50 for $100.00. Cash: $1,000.00.")
}

// A bad amount typed at the amount question is answered with what is
// wrong, and the question stays open: the next answer buys.
func TestABadAmountIsExplainedAndAskedAgain(t *testing.T) {
	b, _, _ := setup(t)
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/coin_topup 1000", Want: "Topped up $1,000.00. Cash: $1,000.00."},
		{Text: "/coin_buy", Want: askSymbol},
		{Text: "btc", Want: "BTC: " + askBuy},
		{Text: "lots", Want: `"lots": the amount must be a positive number. BTC: ` + askBuy},
		{Text: "0.001", Want: `"0.001": too many decimal places: at most 2. BTC: ` + askBuy},
		{Text: "100", Want: "Bought 0.00166665 BTC at $60,000.50 for $100.00. Cash: $900.00."},
		{Text: "/coin_sell", Want: askSymbol},
		{Text: "BTC", Want: "BTC: " + askSell},
		{Text: "-1", Want: `"-1": the amount must be a positive number. BTC: ` + askSell},
		{Text: "all", Want: "Sold 0.00166665 BTC at $60,000.50 for $100.00. Cash: $1,000.00."},
	})
}
