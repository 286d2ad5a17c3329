package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
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
	for _, call := range calls {
		if !call.OK || call.Method != "sendMessage" || !strings.HasPrefix(call.Text, "🔔 Alert set: ") {
			continue
		}
		data := cancelOf(call.Markup, "coina:x:")
		if data == "" {
			continue
		}
		described := strings.TrimPrefix(call.Text, "🔔 Alert set: ")
		described, _, _ = strings.Cut(described, " (now ")
		a := &alert{key: strings.TrimPrefix(data, "coina:x:"), chat: c, from: c.id, thread: thread, user: user, sym: sym, above: above,
			level: lv, shown: strings.TrimPrefix(described, sym+" "+dir+" "), set: l.clk.Now(), message: call.Message}
		if l.timers.alerts[a.key] == nil {
			l.timers.alerts[a.key] = a
			l.timers.alertList = append(l.timers.alertList, a)
			l.hist.count("alerts-set", 1)
		}
	}
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

// alertSent finds the alert a fired message names: in its chat, the same
// symbol, direction and level.
func (l *life) alertSent(call Call) *alert {
	head, _, _ := strings.Cut(call.Text, ":")
	f := strings.Fields(strings.TrimPrefix(head, "🔔 "))
	if len(f) < 5 {
		return nil
	}
	above := f[1] == "rose"
	var found *alert
	for _, a := range l.timers.alertList {
		if a.sym == f[0] && a.above == above && a.shown == f[len(f)-1] && (call.SentChat == a.chat.id || call.SentChat == a.from) {
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
