package lolschedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The daily push sends at most one message per chat per day, whoever fires
// it and however often: before sending it claims the (day, subscriber)
// marker with CAS ("sending"), and only the claim's winner sends; a sent
// message turns the claim into "sent", a failed send gives the claim back
// so a retry can send. A claim left "sending" by a push that crashed is
// retaken once claimStale old. The trade-off, chosen over skipping the chat
// for the day: if the crash fell between Telegram taking the message and
// the marker turning "sent", that chat gets the message twice. Markers of
// earlier days are removed as each push starts.
const sentPrefix = "sent:"

// claimStale: a "sending" claim this old belongs to a push that died (a
// send takes seconds; a push waits out no more than its flood budget).
const claimStale = 10 * time.Minute

// marker is the value of a sent-marker. An empty value is "sent" (how
// markers were written before claims).
type marker struct {
	State string `json:"state"` // sending | sent | refused (final for the day) | failed (claimable again)
	At    int64  `json:"at"`    // unix nanos
}

func sentKey(day string, s subscriber) string {
	return fmt.Sprintf("%s%s:%d:%d", sentPrefix, day, s.ChatID, s.ThreadID)
}

// pushResult summarises one run.
type pushResult struct {
	Sent, Skipped, Pruned, Refused, Failed int
}

func (m *module) dailyPush(ctx context.Context) error {
	res, err := m.push(ctx)
	m.log.Info("lolschedule daily push", "sent", res.Sent, "already_sent", res.Skipped, "pruned", res.Pruned, "refused", res.Refused, "failed", res.Failed)
	return err
}

func (m *module) push(ctx context.Context) (pushResult, error) {
	var res pushResult
	from, to := dayOf(m.now())
	day := from.Format("2006-01-02")
	m.forgetOtherDays(ctx, day)

	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return res, fmt.Errorf("today's schedule: %w", err)
	}
	if len(ms) == 0 && !m.pushEmpty {
		return res, nil
	}
	text := noMatchesText(from)
	if len(ms) > 0 {
		text = render("LoL today, "+from.Format("Mon 02/01/2006")+" (ICT)", ms, false)
	}
	subs, err := m.subscribers(ctx)
	if err != nil {
		return res, err
	}
	var failures []error
	for _, s := range subs {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		key := sentKey(day, s)
		claimed, err := m.claim(ctx, key)
		if err != nil {
			return res, err // without the marker we cannot tell: do not risk a repeat
		}
		if claimed == nil {
			res.Skipped++ // sent, or being sent by another push
			continue
		}
		msg, err := m.bot.Send(ctx, app.Message{ChatID: s.ChatID, ThreadID: s.ThreadID, Text: text, ParseMode: "HTML", NoPreview: true, Bulk: true, Keyboard: pushKeyboard(from)})
		switch {
		case err == nil:
			res.Sent++
			if err := m.markSent(ctx, day, s, key, claimed, msg); err != nil {
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
			refused, _ := json.Marshal(marker{State: "refused", At: m.now().UnixNano()})
			_ = m.store.CompareAndSwap(ctx, key, claimed, refused)
			if errors.Is(err, app.ErrNoRights) {
				m.tellOwnerOnce(ctx, s.ChatID)
			}
		default:
			// Anything else may pass: give the claim back, so a retry sends
			// (and no other push waits).
			res.Failed++
			failed, _ := json.Marshal(marker{State: "failed", At: m.now().UnixNano()})
			_ = m.store.CompareAndSwap(context.WithoutCancel(ctx), key, claimed, failed)
			failures = append(failures, fmt.Errorf("chat %d: %w", s.ChatID, err))
		}
	}
	if len(failures) > 0 {
		return res, fmt.Errorf("%d of %d sends failed (a retry sends only the rest): %w", len(failures), len(subs), errors.Join(failures...))
	}
	return res, nil
}

// claim takes the marker at key for this push: it returns the claim's bytes
// when this push is to send, nil when the chat was sent to or is being
// sent to by another push.
func (m *module) claim(ctx context.Context, key string) ([]byte, error) {
	mine, _ := json.Marshal(marker{State: "sending", At: m.now().UnixNano()})
	var won []byte
	err := storage.Update(ctx, m.store, key, func(cur []byte) ([]byte, error) {
		won = nil // this may run again after a lost race
		if cur != nil {
			var mk marker
			if len(cur) == 0 || json.Unmarshal(cur, &mk) != nil {
				return nil, nil // sent (an empty marker is an old one; an unreadable one is not risked)
			}
			if claim.Judge(claim.Parse(mk.State), mk.At, m.now(), claimStale) != claim.Take {
				return nil, nil // sent or refused, or a live claim of another push
			}
		}
		won = mine
		return mine, nil
	})
	return won, err
}

// markSent turns this push's claim into "sent". When the group became a
// supergroup on the way (the client resent there), the core has moved the
// subscription: the day is marked under the new id, where a retry looks.
func (m *module) markSent(ctx context.Context, day string, s subscriber, key string, claimed []byte, msg *models.Message) error {
	sent, _ := json.Marshal(marker{State: "sent", At: m.now().UnixNano()})
	if msg == nil || msg.Chat.ID == 0 || msg.Chat.ID == s.ChatID {
		return m.store.CompareAndSwap(ctx, key, claimed, sent)
	}
	err := m.store.CompareAndSwap(ctx, sentKey(day, subscriber{ChatID: msg.Chat.ID, ThreadID: s.ThreadID}), nil, sent)
	if err != nil && !errors.Is(err, storage.ErrConflict) {
		return err
	}
	return m.store.Delete(ctx, key)
}

// tellOwnerOnce lets the owner know, once per chat, that the bot may not
// post its push there (an admin took the right away).
func (m *module) tellOwnerOnce(ctx context.Context, chat int64) {
	if m.owner == 0 || m.store.CompareAndSwap(ctx, fmt.Sprintf("norights:%d", chat), nil, []byte("told")) != nil {
		return
	}
	text := fmt.Sprintf("lolschedule: I may not post in chat %d (not enough rights); its daily push is skipped until an admin lets me.", chat)
	if _, err := m.bot.Send(ctx, app.Message{ChatID: m.owner, Text: text}); err != nil {
		m.log.Warn("lolschedule: could not tell the owner of a chat without rights", "chat_id", chat, "err", err)
	}
}

// forgetOtherDays removes sent-markers not of day; failures only cost space.
func (m *module) forgetOtherDays(ctx context.Context, day string) {
	keys, err := m.store.List(ctx, sentPrefix)
	if err != nil {
		return
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, sentPrefix+day+":") {
			_ = m.store.Delete(ctx, k)
		}
	}
}
