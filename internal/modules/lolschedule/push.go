package lolschedule

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The daily push sends at most one message per chat per day, whoever fires
// it and however often: before sending it takes the (day, subscriber)
// claim (app.TakeClaim), and only the claim's taker sends; a sent (or
// refused) message finishes the claim, a failed send gives the claim back
// so a retry can send. A claim left running by a push that crashed is
// retaken once claimStale old. The trade-off, chosen over skipping the chat
// for the day: if the crash fell between Telegram taking the message and
// the claim finishing, that chat gets the message twice. The day is the
// run's slot's (app.CronRun), never the clock's. Claims of earlier days
// are removed as each push starts.
const sentPrefix = "sent:"

// claimStale: a running claim this old belongs to a push that died (a
// send takes seconds; a push waits out no more than its flood budget).
const claimStale = 10 * time.Minute

func sentKey(day string, s subscriber) string {
	return fmt.Sprintf("%s%s:%d:%d", sentPrefix, day, s.ChatID, s.ThreadID)
}

// pushResult summarises one run.
type pushResult struct {
	Sent, Skipped, Pruned, Refused, Failed, Damaged int
}

// dailyPush sends the day of its slot, however late or by whom it runs.
func (m *module) dailyPush(ctx context.Context, run app.CronRun) error {
	res, err := m.push(ctx, run.Slot)
	m.log.Info("lolschedule daily push", "sent", res.Sent, "already_sent", res.Skipped, "pruned", res.Pruned, "refused", res.Refused, "failed", res.Failed, "damaged", res.Damaged)
	return err
}

func (m *module) push(ctx context.Context, slot time.Time) (pushResult, error) {
	var res pushResult
	from, to := dayOf(slot)
	day := from.Format("2006-01-02")
	m.forgetDaysBefore(ctx, day)

	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return res, fmt.Errorf("today's schedule: %w", err)
	}
	if len(ms) == 0 && !m.pushEmpty {
		return res, nil
	}
	dg := m.digest(from, ms)
	subs, err := m.subscribers(ctx)
	if err != nil {
		return res, err
	}
	var failures []error
	for _, s := range subs {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		said, err := dg.to(ctx, s.ChatID)
		if err != nil { // its language unread: a retry sends it
			res.Failed++
			failures = append(failures, fmt.Errorf("chat %d: %w", s.ChatID, err))
			continue
		}
		key := sentKey(day, s)
		claimed, err := app.TakeClaim(ctx, m.store, key, m.now(), claimStale)
		switch {
		case errors.Is(err, storage.ErrUnreadable):
			// A damaged mark holds up its chat only: skipped, and the
			// engine names it (a job failing only so still ran).
			res.Damaged++
			failures = append(failures, fmt.Errorf("chat %d: %w", s.ChatID, err))
			continue
		case err != nil:
			return res, err // without the marker we cannot tell: do not risk a repeat
		}
		if claimed == nil {
			res.Skipped++ // sent, or being sent by another push
			continue
		}
		msg, err := m.bot.Send(ctx, app.Message{ChatID: s.ChatID, ThreadID: s.ThreadID, Text: said.Text, ParseMode: "HTML", NoPreview: true, Bulk: true, Keyboard: said.Keyboard})
		switch {
		case err == nil:
			res.Sent++
			if err := m.markSent(ctx, day, s, claimed, msg); err != nil {
				failures = append(failures, err) // the claim stands: no other push sends it
			}
		case errors.Is(err, app.ErrChatGone), errors.Is(err, app.ErrBlocked), errors.Is(err, app.ErrChatNotFound):
			// The core has forgotten the chat (its subscriptions, today's
			// marks) as the send's answer came in: nothing to retry.
			res.Pruned++
		case app.Permanent(err):
			// Final for this send, not for the chat (a closed topic may
			// reopen, rights may come back): keep the subscription and mark
			// the day done, so no retry repeats a refused send.
			res.Refused++
			m.log.Info("lolschedule: today's push refused in this chat; the subscription stays", "chat_id", s.ChatID, "thread_id", s.ThreadID, "err", err)
			_ = claimed.Finish(ctx, m.now())
			if errors.Is(err, app.ErrNoRights) {
				m.tellOwnerOnce(ctx, s.ChatID)
			}
		default:
			// Anything else may pass: give the claim back, so a retry sends
			// (and no other push waits).
			res.Failed++
			_ = claimed.Release(ctx, m.now())
			failures = append(failures, fmt.Errorf("chat %d: %w", s.ChatID, err))
		}
	}
	if len(failures) > 0 {
		return res, fmt.Errorf("%d of %d sends failed (a retry sends only the rest): %w", len(failures), len(subs), errors.Join(failures...))
	}
	return res, nil
}

// markSent finishes this push's claim. When the group became a
// supergroup on the way (the client resent there), the core has moved the
// subscription: the day is marked under the new id, where a retry looks.
func (m *module) markSent(ctx context.Context, day string, s subscriber, claimed *app.Claim, msg *models.Message) error {
	if msg == nil || msg.Chat.ID == 0 || msg.Chat.ID == s.ChatID {
		return claimed.Finish(ctx, m.now())
	}
	return claimed.FinishAt(ctx, sentKey(day, subscriber{ChatID: msg.Chat.ID, ThreadID: s.ThreadID}), m.now())
}

// tellOwnerOnce lets the owner know, once per chat, that the bot may not
// post its push there (an admin took the right away).
func (m *module) tellOwnerOnce(ctx context.Context, chat int64) {
	if m.owner == 0 || m.store.CompareAndSwap(ctx, fmt.Sprintf("norights:%d", chat), nil, []byte("told")) != nil {
		return
	}
	w, err := m.texts.Chat(ctx, m.owner)
	if err != nil {
		w = m.texts.In(app.English)
	}
	text := w.T("owner_no_rights", app.Args{"Chat": strconv.FormatInt(chat, 10)})
	if _, err := m.bot.Send(ctx, app.Message{ChatID: m.owner, Text: text}); err != nil {
		m.log.Warn("lolschedule: could not tell the owner of a chat without rights", "chat_id", chat, "err", err)
	}
}

// forgetDaysBefore removes the sent-markers of days before day; failures
// only cost space. A later day's stay: a slot run by hand for an earlier
// day must not let that day's retry send again.
func (m *module) forgetDaysBefore(ctx context.Context, day string) {
	keys, err := m.store.List(ctx, sentPrefix)
	if err != nil {
		return
	}
	for _, k := range keys {
		if k < sentPrefix+day+":" {
			_ = m.store.Delete(ctx, k)
		}
	}
}
