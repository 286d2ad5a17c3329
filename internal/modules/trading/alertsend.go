package trading

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// alertPrefix starts an alert's timer key, "alert:<user>:<id>".
const alertPrefix = "alert:"

func alertTimerKey(user, id int64) string {
	return alertPrefix + strconv.FormatInt(user, 10) + ":" + strconv.FormatInt(id, 10)
}

// firing is what an alert's timer carries: whose alert, the alert as the
// check saw it, and the quote that crossed its level (none yet while a
// check holds it).
type firing struct {
	User  int64 `json:"user"`
	Alert Alert `json:"alert"`
	Quote Quote `json:"quote"`
}

// fire sets the timer of h's alert, crossed at q, due at once: under a key
// a timer holds (an earlier check set it, or it fired within fireKeep) it
// sets nothing, so the alert fires once at the quote that first crossed.
func (a *Alerts) fire(ctx context.Context, h firing, q Quote) error {
	h.Alert.OldFired, h.Quote = nil, q
	al := h.Alert
	payload, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("fire alert %d of %d: %w", al.ID, h.User, err)
	}
	_, err = a.Timers.Set(ctx, app.Timer{Key: alertTimerKey(h.User, al.ID), ChatID: al.Chat, ThreadID: al.Thread,
		At: a.now(), Payload: payload, Keep: fireKeep})
	if err != nil && !errors.Is(err, app.ErrTimerExists) {
		return fmt.Errorf("fire alert %d of %d: %w", al.ID, h.User, err)
	}
	return nil
}

// fireOld sets the timer of an alert a build before the alerts' timers
// marked fired, at its quote; one that build sent (its send claim says
// done) only ends.
func (a *Alerts) fireOld(ctx context.Context, h firing) error {
	rec, err := a.store().Get(ctx, oldFireKey(h.User, h.Alert.ID))
	switch {
	case err == nil && oldClaimDone(rec):
		return a.endOld(ctx, h)
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return err
	}
	return a.fire(ctx, h, *h.Alert.OldFired)
}

// oldClaimDone reads an older build's send claim as that build did: done,
// or a record it could not read, means sent.
func oldClaimDone(rec []byte) bool {
	var c struct {
		State string `json:"state"`
	}
	return json.Unmarshal(rec, &c) != nil || c.State == "done"
}

// endOld ends an alert the build before sent, and drops its claim.
func (a *Alerts) endOld(ctx context.Context, h firing) error {
	err := storage.UpdateJSON(ctx, a.store(), bookKey(h.User), func(b *alertBook, _ bool) (bool, error) {
		i := b.find(h.Alert.ID)
		if i < 0 {
			return false, nil
		}
		b.end(i, "fired", a.now(), 0)
		return true, nil
	})
	if err != nil {
		return err
	}
	return a.store().Delete(ctx, oldFireKey(h.User, h.Alert.ID))
}

// OnTimer is an alert's timer: one swap ends the alert in its user's
// record, tagged with the timer's ID, then the alert is sent. An alert
// a Cancel ended first is not sent; one this timer ended is sent again by
// a retry of its callback (the send failed, or its runner died). A topic
// closed or gone takes it to the chat itself, as a reminder; a send
// refused for good there is dropped, and the record says so.
func (a *Alerts) OnTimer(ctx context.Context, t app.Timer) error {
	var f firing
	if err := json.Unmarshal(t.Payload, &f); err != nil || !strings.HasPrefix(t.Key, alertPrefix) {
		a.Desk.Quotes.Log.Error("alert timer unreadable; dropped", "market", a.Desk.Name, "key", t.Key)
		return nil
	}
	send := false
	err := storage.UpdateJSON(ctx, a.store(), bookKey(f.User), func(b *alertBook, _ bool) (bool, error) {
		if i := b.find(f.Alert.ID); i >= 0 {
			b.end(i, "fired", a.now(), t.ID)
			send = true
			return true, nil
		}
		send = b.endedBy(f.Alert.ID, t.ID) >= 0
		return false, nil
	})
	if err != nil || !send {
		return err
	}
	al := f.Alert
	al.Chat, al.Thread = t.ChatID, t.ThreadID // the engine moves a timer with its chat
	w, err := a.Desk.Texts.Chat(ctx, al.Chat)
	if err != nil {
		return fmt.Errorf("send alert %d of %d: %w", al.ID, f.User, err)
	}
	_, err = app.SendInTopicOrChat(ctx, a.Desk.Bot, app.Message{ChatID: al.Chat, ThreadID: al.Thread, Text: a.firedText(w, al, f.Quote)})
	switch {
	case err != nil && app.Permanent(err):
		a.Desk.Quotes.Log.Warn("alert not deliverable; dropped", "market", a.Desk.Name, "user", f.User, "alert", al.ID, "chat", al.Chat, "err", err)
		a.undeliverable(ctx, f.User, al.ID, t.ID)
		return nil
	case err != nil:
		return fmt.Errorf("send alert %d of %d: %w", al.ID, f.User, err)
	}
	return nil
}

// endedBy is the index of the end of alert id by timer, or -1.
func (b *alertBook) endedBy(id, timer int64) int {
	return slices.IndexFunc(b.Ended, func(e Ended) bool { return e.ID == id && e.Timer == timer })
}

// undeliverable says in the record that the alert's send was refused for
// good; a failure leaves it saying fired.
func (a *Alerts) undeliverable(ctx context.Context, user, id, timer int64) {
	_ = storage.UpdateJSON(ctx, a.store(), bookKey(user), func(b *alertBook, _ bool) (bool, error) {
		i := b.endedBy(id, timer)
		if i < 0 {
			return false, nil
		}
		b.Ended[i].How = "undeliverable"
		return true, nil
	})
}

// firedText is the alert's message in w's language: the price, its
// source and its time.
func (a *Alerts) firedText(w app.Words, al Alert, q Quote) string {
	args := a.args(w, al)
	args["Price"], args["Source"], args["At"] = a.Desk.Price(w.Lang, q.Price), a.Desk.SourceName(w, q.Source), locale.DateTime(w.Lang, w.Local(q.At))
	key := "trading.alert.fired_below"
	if al.Above {
		key = "trading.alert.fired_above"
	}
	text := w.T(key, args)
	if al.Name != "" {
		text += "\n" + w.T("trading.alert.set_by", app.Args{"Name": al.Name})
	}
	return text
}
