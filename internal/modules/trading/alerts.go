package trading

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Alerts are a market's price alerts: "/<name>_alert [SYM] above|below
// LEVEL" sets one in the chat (and forum topic) it is typed in, a job
// every minute ("<name>_alerts") checks them from the desk's sources, and
// an alert fires once, into that chat, when the price crosses its level,
// and is then removed. A user's alerts live in one record,
// "alerts:<user id>", changed only under compare-and-swap: setting one is
// applied once per update. The check that sees a crossing sets a timer
// keyed by the alert ("alert:<user>:<id>"), which replicas and two checks
// of one minute set once; its callback ends the alert in the record and
// sends it. An alert is either cancelled or ended by its timer in one
// swap, never both, so a confirmed Cancel means it never fires.
type Alerts struct {
	// Desk is the market's: its Kit reads the symbols, names and prices
	// alerts say, its Quotes price them, its Bot sends them.
	Desk *Desk
	// Timers are the module's: an alert fires through one (OnTimer).
	Timers app.Timers
}

// Bounds of a market's alerts.
const (
	// MaxAlerts is how many alerts a user may have set in one market.
	MaxAlerts = 20
	// AlertTolerance is how old a price may be for a check to act on it;
	// an older one is no price, and the check waits for a fresh one.
	AlertTolerance = 2 * time.Minute
	// maxEnded is how many fired or cancelled alerts a user's record
	// remembers, so a Cancel pressed later gets a clear answer.
	maxEnded = 20
	// fireKeep holds an alert's timer key after it fired or found the
	// alert cancelled: far past the checks of the minute that set it.
	fireKeep = time.Hour
	// levelPlaces bounds a level's decimals (a small coin's price needs many).
	levelPlaces = 12
)

// maxLevel bounds a level of a market without a PriceRange.
var maxLevel = decimal.New(1, 15)

// Alert is one price alert.
type Alert struct {
	ID     int64           `json:"id"` // the user's, in this market: 1, 2, ...
	Symbol string          `json:"symbol"`
	Above  bool            `json:"above"` // fires at or above Level; else at or below
	Level  decimal.Decimal `json:"level"`
	Chat   int64           `json:"chat"`
	Thread int             `json:"thread,omitempty"`
	Name   string          `json:"name,omitempty"` // who set it, as the message names them
	Set    time.Time       `json:"set"`
	// OldFired is the quote a build before the alerts' timers marked it
	// fired at, not yet sent: a check sets its timer at that quote.
	OldFired *Quote `json:"fired,omitempty"`
}

// Ended is a fired or cancelled alert, remembered for a later press.
type Ended struct {
	ID  int64     `json:"id"`
	How string    `json:"how"` // "cancelled", "fired", "undeliverable", "chat gone": trading.alert.how.<how>
	At  time.Time `json:"at"`
	// Timer is the ID of the timer that ended it (fired): a retry of that
	// timer's callback still sends.
	Timer int64 `json:"timer,omitempty"`
}

// alertReply is what setting an alert earned: its text, and the alert
// for its Cancel button (0: none was set).
type alertReply struct {
	Text string `json:"text"`
	ID   int64  `json:"id,omitempty"`
}

// alertBook is a user's alerts in one market.
type alertBook struct {
	app.Once[alertReply]
	Seq    int64   `json:"seq"`
	Alerts []Alert `json:"alerts,omitempty"`
	Ended  []Ended `json:"ended,omitempty"`
}

// alertsPrefix starts a user's alerts record, "alerts:<user id>".
const alertsPrefix = "alerts:"

func bookKey(user int64) string { return alertsPrefix + strconv.FormatInt(user, 10) }

// oldFireKey is the send claim of an alert a build before the alerts'
// timers marked fired.
func oldFireKey(user, id int64) string {
	return "fire:" + strconv.FormatInt(user, 10) + ":" + strconv.FormatInt(id, 10)
}

func (b *alertBook) find(id int64) int {
	return slices.IndexFunc(b.Alerts, func(a Alert) bool { return a.ID == id })
}

// end removes alert i, remembering how it ended (and by which timer: 0
// for none).
func (b *alertBook) end(i int, how string, at time.Time, timer int64) {
	b.Ended = append(b.Ended, Ended{ID: b.Alerts[i].ID, How: how, At: at, Timer: timer})
	if len(b.Ended) > maxEnded {
		b.Ended = append([]Ended(nil), b.Ended[len(b.Ended)-maxEnded:]...)
	}
	b.Alerts = slices.Delete(b.Alerts, i, i+1)
}

func (a *Alerts) store() storage.KVStore { return a.Desk.Quotes.Store }

func (a *Alerts) now() time.Time { return a.Desk.Quotes.Now() }

func (a *Alerts) loadBook(ctx context.Context, user int64) (*alertBook, error) {
	var b alertBook
	if err := a.store().GetJSON(ctx, bookKey(user), &b); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	return &b, nil
}

// describe is "BTC above $120,000.00" in w's language.
func (a *Alerts) describe(w app.Words, al Alert) string { return a.args(w, al)["Alert"].(string) }

// args are an alert's words: what it watches (Label), its direction
// (Dir), its level, and all three (Alert).
func (a *Alerts) args(w app.Words, al Alert) app.Args {
	label, dir := KeyOr(w, a.Desk.AlertLabel, al.Symbol), "below"
	if al.Above {
		dir = "above"
	}
	args := app.Args{"Label": label, "Dir": w.T("trading.alert." + dir), "Level": a.Desk.Price(w.Lang, al.Level)}
	args["Alert"] = w.T("trading.alert.describe_"+dir, args)
	return args
}

// MoveChat is the alerts' part of OnChatChange: alerts set in a group
// that became a supergroup fire there; those of a chat gone are dropped.
func (a *Alerts) MoveChat(ctx context.Context, ch app.ChatChange) error {
	err := updateEach(ctx, a.store(), alertsPrefix, func(b *alertBook, _ bool) (bool, error) {
		changed := false
		for i := len(b.Alerts) - 1; i >= 0; i-- {
			switch {
			case b.Alerts[i].Chat != ch.ChatID:
			case ch.MovedTo != 0:
				b.Alerts[i].Chat, changed = ch.MovedTo, true
			case b.Alerts[i].OldFired == nil:
				b.end(i, "chat gone", a.now(), 0)
				changed = true
			}
		}
		return changed, nil
	})
	if err != nil {
		return fmt.Errorf("%s alerts: move chat %d: %w", a.Desk.Name, ch.ChatID, err)
	}
	return nil
}
