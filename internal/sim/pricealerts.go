package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// setAlert is /coin_alert on BTC or ETH a little above or below the
// price the fake Binance answers now, so the hourly walk crosses it
// within hours (or never).
func (l *life) setAlert() {
	c, thread, ok := l.world.pick(l.tm)
	if !ok {
		return
	}
	user := c.members[l.tm.IntN(len(c.members))]
	sym := []string{"BTC", "ETH"}[l.tm.IntN(2)]
	now := l.mkt.prices[sym][l.mkt.hour()]
	above := l.tm.IntN(2) == 0
	off := float64(5+l.tm.IntN(25)) / 1000
	level := now * (1 - off)
	dir := "below"
	if above {
		level, dir = now*(1+off), "above"
	}
	lv := decimal.NewFromFloat(level).Round(2)
	calls := l.sendTimerCommand(c, thread, user, fmt.Sprintf("/coin_alert %s %s %s", sym, dir, lv.StringFixed(2)), "coin_alert")
	l.hist.count("alerts-asked", 1)
	// Confirmed: a reply to its update reached the user with its Cancel
	// button; the coin module must then hold that alert pending, as asked.
	for _, call := range calls {
		key, ok := alertKey(cancelOf(call.Markup, "coina:x:"))
		if !call.OK || call.Method != "sendMessage" || !ok || l.timers.alerts[key] != nil {
			continue
		}
		if got := l.alertPending(key); got == nil || got.Symbol != sym || got.Above != above || !got.Level.Equal(lv) {
			l.fail("alerts", "%s: confirmed as %s %s %s, but the coin module holds %+v", key, sym, dir, lv, got)
		}
		a := &alert{key: key, chat: c, from: c.id, thread: thread, user: user, sym: sym, above: above,
			level: lv, shown: levelShown(lv), set: l.clk.Now(), message: call.Message}
		l.timers.alerts[a.key] = a
		l.timers.alertList = append(l.timers.alertList, a)
		l.hist.count("alerts-set", 1)
	}
}

// alertPending is the alert under key ("<user>:<id>") as the coin module
// holds it pending in the user's record (nil: it holds none).
func (l *life) alertPending(key string) *trading.Alert {
	user, id, _ := strings.Cut(key, ":")
	var book struct {
		Alerts []trading.Alert `json:"alerts"`
	}
	err := l.cfg.Store.For("coin").GetJSON(context.Background(), "alerts:"+user, &book)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		l.t.Fatal(err)
	}
	i := slices.IndexFunc(book.Alerts, func(a trading.Alert) bool { return strconv.FormatInt(a.ID, 10) == id })
	if i < 0 {
		return nil
	}
	return &book.Alerts[i]
}

// cancelOf is the data of the first button of markup whose data starts
// with prefix ("": none).
func cancelOf(markup, prefix string) string {
	for _, part := range strings.Split(markup, `"callback_data":"`)[1:] {
		data, _, _ := strings.Cut(part, `"`)
		if strings.HasPrefix(data, prefix) {
			return data
		}
	}
	return ""
}

// cancelAlert is a user pressing Cancel on an alert's confirmation.
func (l *life) cancelAlert() {
	var open []*alert
	for _, a := range l.timers.alertList {
		if a.cancelled.IsZero() && !a.tooLate && len(a.sent) == 0 && !a.chat.gone && !a.chat.closed[a.thread] {
			open = append(open, a)
		}
	}
	if len(open) == 0 {
		l.setAlert()
		return
	}
	a := open[l.tm.IntN(len(open))]
	l.press(a.chat, a.thread, a.user, a.message, "coina:x:"+a.key, "❌ Cancel")
}

// crossedBy reports whether the fake's price for a crossed its level in
// some hour from the one before it was set to now's.
func (l *life) crossedBy(a *alert) bool {
	walk := l.mkt.prices[a.sym]
	from := max(int(a.set.Sub(l.mkt.start)/3600e9)-1, 0)
	lv := a.level.InexactFloat64()
	for h := from; h <= l.mkt.hour(); h++ {
		// The sources write prices to the cent: a hair's difference is none.
		if a.above && walk[h] >= lv-0.01 || !a.above && walk[h] <= lv+0.01 {
			return true
		}
	}
	return false
}

// levelShown is an alert's level as the bot may write it, in each
// language it speaks ("$91,234.56", "91.234,56 $").
func levelShown(lv decimal.Decimal) []string {
	var out []string
	for _, lang := range locale.Langs {
		out = append(out, locale.Money(lang, "USD", lv.StringFixed(2)))
	}
	return out
}

// alertSent finds the alert a fired message (a send of the alerts' check,
// alertsJob) is: in its chat, naming its symbol and its level, in words of
// any language.
func (l *life) alertSent(call Call) *alert {
	names := func(a *alert) bool {
		return strings.Contains(call.Text, a.sym) && slices.ContainsFunc(a.shown, func(s string) bool { return strings.Contains(call.Text, s) })
	}
	var found *alert
	for _, a := range l.timers.alertList {
		if names(a) && (call.SentChat == a.chat.id || call.SentChat == a.from) {
			if found == nil || len(found.sent) > 0 && len(a.sent) == 0 {
				found = a
			}
		}
	}
	return found
}

// alertKey parses "<user>:<id>" from a Cancel's data.
func alertKey(data string) (string, bool) {
	rest, ok := strings.CutPrefix(data, "coina:x:")
	if !ok {
		return "", false
	}
	u, id, ok := strings.Cut(rest, ":")
	if _, err := strconv.ParseInt(u, 10, 64); err != nil || !ok {
		return "", false
	}
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		return "", false
	}
	return rest, true
}
