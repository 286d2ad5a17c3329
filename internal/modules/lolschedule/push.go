package lolschedule

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The daily push is resumable: after each successful send it records a
// marker for (day, subscriber); a retry of the day's push skips marked
// subscribers, so a crash after k of N sends costs at most the send that was
// in flight. Markers of earlier days are removed as each push starts.
const sentPrefix = "sent:"

func sentKey(day string, s subscriber) string {
	return fmt.Sprintf("%s%s:%d:%d", sentPrefix, day, s.ChatID, s.ThreadID)
}

// pushResult summarises one run.
type pushResult struct {
	Sent, Skipped, Pruned, Failed int
}

func (m *module) dailyPush(ctx context.Context) error {
	res, err := m.push(ctx)
	m.log.Info("lolschedule daily push", "sent", res.Sent, "already_sent", res.Skipped, "pruned", res.Pruned, "failed", res.Failed)
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
		switch _, err := m.store.Get(ctx, key); {
		case err == nil:
			res.Skipped++
			continue
		case !errors.Is(err, storage.ErrNotFound):
			return res, err // without the marker we cannot tell: do not risk a repeat
		}
		_, err := m.bot.Send(ctx, app.Message{ChatID: s.ChatID, ThreadID: s.ThreadID, Text: text, ParseMode: "HTML", NoPreview: true, Bulk: true})
		switch {
		case err == nil:
			res.Sent++
			if err := m.store.Put(ctx, key, nil); err != nil {
				failures = append(failures, err) // at worst this one is sent twice
			}
		case errors.Is(err, app.ErrBlocked), errors.Is(err, app.ErrChatNotFound), errors.Is(err, app.ErrThreadNotFound):
			// The chat or topic is gone for good: stop writing to it.
			res.Pruned++
			m.log.Info("lolschedule: subscriber removed", "chat_id", s.ChatID, "thread_id", s.ThreadID, "reason", err)
			if err := m.store.Delete(ctx, s.key()); err != nil {
				failures = append(failures, err)
			}
		default:
			// Anything else may pass: keep the subscriber, let a retry try again.
			res.Failed++
			failures = append(failures, fmt.Errorf("chat %d: %w", s.ChatID, err))
		}
	}
	if len(failures) > 0 {
		return res, fmt.Errorf("%d of %d sends failed (a retry sends only the rest): %w", len(failures), len(subs), errors.Join(failures...))
	}
	return res, nil
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
