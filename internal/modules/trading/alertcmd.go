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

// errAlertUsage marks a refusal whose text is the reply.
var errAlertUsage = errors.New("alert usage")

// ParseAlert reads the arguments of "/<name>_alert", "[SYM] above|below
// LEVEL", as an Alert's Symbol, Above and Level: the symbol checked as the desk checks it, the level a positive
// finite number within the market's PriceRange, as w's language writes it
// (locale.ParseDecimal). Its error's text is the reply to a bad command, in
// w's language.
func (a *Alerts) ParseAlert(w app.Words, args string) (Alert, error) {
	k := a.Desk.Kit
	hint := ""
	if k.Symbol != nil {
		hint = "<" + w.T(k.AlertSymbol) + "> "
	}
	usage := w.T("trading.alert.usage", app.Args{"Name": k.Name, "Symbol": hint, "Example": k.AlertExample})
	refuse := func(key string, args app.Args) (Alert, error) {
		if args == nil {
			args = app.Args{}
		}
		args["Usage"] = usage
		return Alert{}, fmt.Errorf("%w: %s", errAlertUsage, w.T(key, args))
	}
	f := strings.Fields(args)
	var o Alert
	if k.Symbol != nil {
		if len(f) == 0 {
			return refuse("trading.alert.usage_only", nil)
		}
		sym, ok := k.Symbol(f[0])
		if !ok {
			return refuse("not_symbol", app.Args{"Arg": app.Quote(f[0])})
		}
		o.Symbol, f = sym, f[1:]
	} else {
		o.Symbol = k.Only
	}
	if len(f) == 0 || len(f) > 2 {
		return refuse("trading.alert.usage_only", nil)
	}
	switch strings.ToLower(f[0]) {
	case "above":
		o.Above = true
	case "below":
	default:
		return refuse("trading.alert.no_direction", nil)
	}
	if len(f) == 1 {
		return refuse("trading.alert.no_level", nil)
	}
	plain, err := locale.ParseDecimal(w.Lang, f[1])
	if why, ok := w.Ambiguous(err); ok {
		return Alert{}, fmt.Errorf("%w: %s.", errAlertUsage, why)
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
		example := strings.Fields(k.AlertExample)
		return refuse("trading.alert.not_positive", app.Args{"Example": example[len(example)-1], "Arg": app.Quote(f[1])})
	case level.Exponent() > 2*levelPlaces, level.GreaterThan(rng.Max):
		return refuse("trading.alert.too_large", app.Args{"Max": k.Price(w.Lang, rng.Max)})
	case level.LessThan(rng.Min):
		return refuse("trading.alert.too_small", app.Args{"Min": k.Price(w.Lang, rng.Min)})
	case level.Exponent() < -levelPlaces && !level.Equal(level.Truncate(levelPlaces)):
		return refuse("trading.alert.too_precise", app.Args{"Places": levelPlaces})
	}
	o.Level = level
	return o, nil
}

// SetCommand is "/<name>_alert".
func (a *Alerts) SetCommand(ctx context.Context, r *app.Request) error {
	al, err := a.ParseAlert(r.Words, r.Args)
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
		_, err := r.Reply(ctx, a.fullText(r.Words))
		return err
	}
	// The price checks the symbol as the desk does (an unknown one is
	// refused), and a level its own market's price already passed is no
	// crossing to wait for. A stand-in's price (another market's, given
	// only when the own sources just failed) is no measure of that: the
	// alert is set, and waits for its own.
	q, ok, err := a.Desk.Quotes.PriceOrReply(ctx, r, al.Symbol)
	if !ok {
		return err
	}
	al.Chat, al.Thread, al.Set, al.Name = r.ChatID, r.ThreadID, a.now(), SenderName(r.Sender)
	args := a.args(r.Words, al)
	args["Price"], args["Source"], args["Sources"], args["Name"] = a.Desk.Price(r.Lang, q.Price), a.Desk.SourceName(r.Words, q.Source), a.Desk.Names(r.Words, false), a.Desk.Name
	if q.Own() && crossed(al, q) {
		_, err := r.Reply(ctx, r.T("trading.alert.already", args))
		return err
	}
	args["Now"] = r.T("trading.alert.now", args)
	if !q.Own() {
		args["Now"] = r.T("trading.alert.now_stand_in", args)
	}
	reply, err := app.ApplyOnce(ctx, a.store(), bookKey(r.UserID), r.UpdateID(), func(b *alertBook, _ bool) (alertReply, error) {
		if len(b.Alerts) >= MaxAlerts {
			return alertReply{Text: a.fullText(r.Words)}, nil
		}
		b.Seq++
		al.ID = b.Seq
		b.Alerts = append(b.Alerts, al)
		return alertReply{ID: al.ID, Text: r.T("trading.alert.set", args)}, nil
	})
	if err != nil {
		return err
	}
	return a.replySet(ctx, r, reply)
}

func (a *Alerts) fullText(w app.Words) string {
	return w.T("trading.alert.full", app.Args{"Max": MaxAlerts, "Name": a.Desk.Name, "Market": w.T("noun")})
}

func (a *Alerts) replySet(ctx context.Context, r *app.Request, reply alertReply) error {
	if reply.ID == 0 {
		_, err := r.Reply(ctx, reply.Text)
		return err
	}
	_, err := r.ReplyKeyboard(ctx, reply.Text, app.MustKeyboard([]app.Button{a.cancelButton(r.UserID, reply.ID, r.T("trading.alert.cancel"))}))
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
			return req.Answer(ctx, req.T("trading.alert.not_yours", app.Args{"Name": a.Desk.Name}))
		}
		toast, err := a.cancel(ctx, req.Words, owner, id)
		if err != nil {
			return err
		}
		if err := req.Answer(ctx, toast); err != nil {
			return err
		}
		text, kb, err := a.list(ctx, req.Words, owner, req.ChatID, req.ChatID > 0)
		if err != nil {
			return err
		}
		return req.Edit(ctx, text, kb)
	}}
}

// cancel removes the alert unless its timer ended it first, under the
// swap that decides it once, and says what happened.
func (a *Alerts) cancel(ctx context.Context, w app.Words, user, id int64) (string, error) {
	var toast string
	err := storage.UpdateJSON(ctx, a.store(), bookKey(user), func(b *alertBook, _ bool) (bool, error) {
		if i := b.find(id); i >= 0 {
			al := b.Alerts[i]
			args := a.args(w, al)
			if al.OldFired != nil {
				args["Price"] = a.Desk.Price(w.Lang, al.OldFired.Price)
				toast = w.T("trading.alert.too_late", args)
				return false, nil
			}
			toast = w.T("trading.alert.cancelled", args)
			b.end(i, "cancelled", a.now(), 0)
			return true, nil
		}
		toast = w.T("trading.alert.gone")
		for _, e := range b.Ended {
			if e.ID == id {
				how := w.T("trading.alert.how." + strings.ReplaceAll(e.How, " ", "_"))
				toast = w.T("trading.alert.gone_how", app.Args{"How": how, "At": locale.DateTime(w.Lang, w.Local(e.At))})
			}
		}
		return false, nil
	})
	return toast, err
}
