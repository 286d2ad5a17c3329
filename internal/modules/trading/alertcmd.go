package trading

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// An alert's Cancel button: "<name>a:x:<user id>:<alert id>".
const kindCancel = "x"

func (a *Alerts) prefix() string { return a.Desk.Name + "a:" }

// AlertOrder is a parsed "/<name>_alert" command.
type AlertOrder struct {
	Symbol string
	Above  bool
	Level  decimal.Decimal
}

// errAlertUsage marks a refusal whose text is the reply.
var errAlertUsage = errors.New("alert usage")

// ParseAlert reads the arguments of "/<name>_alert": "[SYM] above|below
// LEVEL", the symbol checked as the desk checks it, the level a positive
// finite number within the market's PriceRange, as w's language writes it
// (locale.ParseDecimal). Its error's text is the reply to a bad command.
func (a *Alerts) ParseAlert(w app.Words, args string) (AlertOrder, error) {
	usage := fmt.Sprintf("Usage: /%s_alert %sabove|below <price>, e.g. /%s_alert %s", a.Desk.Name, a.symbolHint(), a.Desk.Name, a.Example)
	refuse := func(msg string) (AlertOrder, error) { return AlertOrder{}, fmt.Errorf("%w: %s", errAlertUsage, msg) }
	f := strings.Fields(args)
	var o AlertOrder
	if a.Symbol != nil {
		if len(f) == 0 {
			return refuse(usage)
		}
		sym, ok := a.Symbol(f[0])
		if !ok {
			return refuse(fmt.Sprintf("Not a %s: %s.", a.what(), app.Quote(f[0])))
		}
		o.Symbol, f = sym, f[1:]
	} else {
		o.Symbol = a.Fixed
	}
	if len(f) == 0 || len(f) > 2 {
		return refuse(usage)
	}
	switch strings.ToLower(f[0]) {
	case "above":
		o.Above = true
	case "below":
	default:
		return refuse("Say above or below, then the price: " + usage)
	}
	if len(f) == 1 {
		return refuse("Missing the price level. " + usage)
	}
	plain, err := locale.ParseDecimal(w.Lang, f[1])
	if why, ok := w.Ambiguous(err); ok {
		return refuse(why + ".")
	}
	level, err := decimal.NewFromString(plain)
	rng := a.Desk.Quotes.Range // a level no price of the market can reach is refused
	if rng.Max.IsZero() {
		rng.Max = maxLevel
	}
	switch {
	// The exponent first: a number like 1e-999999999 is cheap to read but
	// not to compare.
	case err != nil, level.Exponent() < -2*levelPlaces, !level.IsPositive():
		return refuse("The level must be a positive number, e.g. " + strings.Fields(a.Example)[len(strings.Fields(a.Example))-1] + "; not " + app.Quote(f[1]) + ".")
	case level.Exponent() > 2*levelPlaces, level.GreaterThan(rng.Max):
		return refuse("That level is too large: at most " + a.Price(rng.Max) + ".")
	case level.LessThan(rng.Min):
		return refuse("That level is too small: at least " + a.Price(rng.Min) + ".")
	case level.Exponent() < -levelPlaces && !level.Equal(level.Truncate(levelPlaces)):
		return refuse(fmt.Sprintf("Too many decimal places in the level: at most %d.", levelPlaces))
	}
	o.Level = level
	return o, nil
}

// what a symbol is called, as the desk's replies call it.
func (a *Alerts) what() string {
	if a.Desk.Quotes.Noun == "ticker" {
		return "ticker"
	}
	return a.Desk.Quotes.Noun + " symbol"
}

func (a *Alerts) symbolHint() string {
	if a.Symbol == nil {
		return ""
	}
	return "<" + a.Desk.Quotes.Noun + "> "
}

// SetCommand is "/<name>_alert".
func (a *Alerts) SetCommand(ctx context.Context, r *app.Request) error {
	o, err := a.ParseAlert(r.Words, r.Args)
	if err != nil {
		_, err := r.Reply(ctx, strings.TrimPrefix(err.Error(), errAlertUsage.Error()+": "))
		return err
	}
	b, err := a.loadBook(ctx, r.UserID)
	if err != nil {
		return err
	}
	if kept, ok := b.Replay(r.UpdateID()); ok { // a redelivery: no price asked again
		return a.replySet(ctx, r, kept)
	}
	if n := len(b.Alerts); n >= MaxAlerts {
		_, err := r.Reply(ctx, a.fullText())
		return err
	}
	// The price checks the symbol as the desk does (an unknown one is
	// refused), and a level its own market's price already passed is no
	// crossing to wait for. A stand-in's price (another market's, given
	// only when the own sources just failed) is no measure of that: the
	// alert is set, and waits for its own.
	q, ok, err := a.Desk.Quotes.PriceOrReply(ctx, r, o.Symbol)
	if !ok {
		return err
	}
	al := Alert{Symbol: o.Symbol, Above: o.Above, Level: o.Level, Chat: r.ChatID, Thread: r.ThreadID, Set: a.now(), Name: displayName(r)}
	now := fmt.Sprintf("now %s, %s", a.Price(q.Price), q.Source)
	if !q.Own() {
		now = fmt.Sprintf("no price from %s now; %s, another market's, says %s: it waits for its own", a.Desk.Quotes.OwnSources(), q.Source, a.Price(q.Price))
	} else if crossed(al, q) {
		_, err := r.Reply(ctx, fmt.Sprintf("%s is already %s: %s now (%s). An alert waits for the price to cross its level.",
			a.label(al.Symbol), strings.TrimPrefix(a.describe(al), a.label(al.Symbol)+" "), a.Price(q.Price), q.Source))
		return err
	}
	reply, err := app.ApplyOnce(ctx, a.store(), bookKey(r.UserID), r.UpdateID(), func(b *alertBook, _ bool) (alertReply, error) {
		if len(b.Alerts) >= MaxAlerts {
			return alertReply{Text: a.fullText()}, nil
		}
		b.Seq++
		al.ID = b.Seq
		b.Alerts = append(b.Alerts, al)
		return alertReply{ID: al.ID, Text: fmt.Sprintf("🔔 Alert set: %s (%s). It fires once, here, when the price crosses it. /%s_alerts lists yours.",
			a.describe(al), now, a.Desk.Name)}, nil
	})
	if err != nil {
		return err
	}
	return a.replySet(ctx, r, reply)
}

func (a *Alerts) fullText() string {
	return fmt.Sprintf("You have %d %s alerts, the most one may set: cancel one in /%s_alerts first.", MaxAlerts, a.Desk.Name, a.Desk.Name)
}

func (a *Alerts) replySet(ctx context.Context, r *app.Request, reply alertReply) error {
	if reply.ID == 0 {
		_, err := r.Reply(ctx, reply.Text)
		return err
	}
	_, err := r.ReplyKeyboard(ctx, reply.Text, app.MustKeyboard([]app.Button{a.cancelButton(r.UserID, reply.ID, "❌ Cancel")}))
	return err
}

func (a *Alerts) cancelButton(user, id int64, label string) app.Button {
	return app.Button{Text: label, Data: app.Data(a.prefix(), kindCancel, strconv.FormatInt(user, 10), strconv.FormatInt(id, 10))}
}

// Callback handles the Cancel buttons: only the alert's owner cancels, and
// a press on an alert that fired or was cancelled says which.
func (a *Alerts) Callback() app.Callback {
	return app.Callback{Prefix: a.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		data, err := app.ParseCallback(a.prefix(), req.Data, 3, 3)
		if err != nil || data.Fields[0] != kindCancel {
			return req.Answer(ctx, app.StaleButtonToast)
		}
		owner, err1 := data.Int(1)
		id, err2 := data.Int(2)
		if err1 != nil || err2 != nil {
			return req.Answer(ctx, app.StaleButtonToast)
		}
		if mine, err := req.ActsFor(ctx, owner); err != nil {
			return err
		} else if !mine {
			return req.Answer(ctx, "This is someone else's alert: yours are in /"+a.Desk.Name+"_alerts.")
		}
		toast, err := a.cancel(ctx, owner, id)
		if err != nil {
			return err
		}
		if err := req.Answer(ctx, toast); err != nil {
			return err
		}
		text, kb, err := a.list(ctx, owner, req.ChatID, req.ChatID > 0)
		if err != nil {
			return err
		}
		return req.Edit(ctx, text, kb)
	}}
}

// cancel removes the alert unless its timer ended it first, under the
// swap that decides it once, and says what happened.
func (a *Alerts) cancel(ctx context.Context, user, id int64) (string, error) {
	var toast string
	err := storage.UpdateJSON(ctx, a.store(), bookKey(user), func(b *alertBook, _ bool) (bool, error) {
		if i := b.find(id); i >= 0 {
			al := b.Alerts[i]
			if al.OldFired != nil {
				toast = "Too late: " + a.describe(al) + " fired at " + a.Price(al.OldFired.Price) + "."
				return false, nil
			}
			toast = "Cancelled: " + a.describe(al) + ". It will not fire."
			b.end(i, "cancelled", a.now(), 0)
			return true, nil
		}
		toast = "This alert is gone: it fired or was cancelled."
		for _, e := range b.Ended {
			if e.ID == id {
				toast = fmt.Sprintf("This alert is gone: %s on %s.", e.How, e.At.In(ICT).Format("02 Jan 2006 15:04 MST"))
			}
		}
		return false, nil
	})
	return toast, err
}
