package trading

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// deliver sends a fired alert at most once: the claim picks one sender
// among every check and replica; the sender reads the alert again after
// taking it (a sender before it may have sent it and removed it), sends,
// finishes the claim, then removes the alert. A topic closed or gone takes
// it to the chat itself, as a reminder; a send refused for good there (the
// chat gone, no right to send) removes it unsent; any other failure gives
// the claim back for the next check.
func (a *Alerts) deliver(ctx context.Context, h held) error {
	key := fireKey(h.user, h.alert.ID)
	c, err := app.TakeClaim(ctx, a.store(), key, a.now(), fireStale)
	if err != nil {
		return err
	}
	if c == nil {
		// Sent (and maybe not yet removed, the sender having died), or
		// being sent: a finished send's alert is removed here.
		rec, err := a.store().Get(ctx, key)
		if err != nil || !app.ClaimFinished(rec) {
			return nil
		}
		return a.remove(ctx, h, "fired")
	}
	b, err := a.loadBook(ctx, h.user)
	if err != nil {
		return errors.Join(err, c.Release(ctx, a.now()))
	}
	i := b.find(h.alert.ID)
	if i < 0 || b.Alerts[i].Fired == nil {
		// Sent and removed by another check since this one read it.
		return a.store().Delete(ctx, key)
	}
	al := b.Alerts[i]
	_, err = app.SendInTopicOrChat(ctx, a.Bot, app.Message{ChatID: al.Chat, ThreadID: al.Thread, Text: a.firedText(al)})
	how := "fired"
	switch {
	case err != nil && app.Permanent(err):
		a.Log.Warn("alert not deliverable; dropped", "market", a.Desk.Name, "user", h.user, "alert", al.ID, "chat", al.Chat, "err", err)
		how = "undeliverable"
	case err != nil:
		return errors.Join(fmt.Errorf("send alert %d of %d: %w", al.ID, h.user, err), c.Release(ctx, a.now()))
	}
	if err := c.Finish(ctx, a.now()); err != nil {
		return err
	}
	return a.remove(ctx, h, how)
}

// remove drops a delivered alert from its book, then its finished claim:
// no sender can take the claim again and find the alert.
func (a *Alerts) remove(ctx context.Context, h held, how string) error {
	err := storage.UpdateJSON(ctx, a.store(), bookKey(h.user), func(b *alertBook, _ bool) (bool, error) {
		i := b.find(h.alert.ID)
		if i < 0 {
			return false, nil
		}
		b.end(i, how, a.now())
		return true, nil
	})
	if err != nil {
		return err
	}
	return a.store().Delete(ctx, fireKey(h.user, h.alert.ID))
}

// firedText is the alert's message: the price, its source and its time.
func (a *Alerts) firedText(al Alert) string {
	q := al.Fired
	dir := "fell to or below"
	if al.Above {
		dir = "rose to or above"
	}
	text := fmt.Sprintf("🔔 %s %s %s: %s (%s, %s).", a.label(al.Symbol), dir, a.Price(al.Level), a.Price(q.Price), q.Source, q.At.In(ICT).Format("02 Jan 2006 15:04 MST"))
	if al.Name != "" {
		text += "\nAlert set by " + al.Name + "; it is now removed."
	}
	return text
}
