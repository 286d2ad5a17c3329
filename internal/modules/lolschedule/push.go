package lolschedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The daily push sends each chat's message through a timer keyed by the
// day and the chat (pushKey), set due at once by the day's cron run and
// kept for pushKeep after it fired: a run told again (both runtimes, a
// scheduler's retry, a run by hand) finds the key taken and sets nothing,
// and the timers engine fires each once (the callback of one whose runner
// died is run again: that chat may get the message twice). The day is the
// run's slot's (app.CronRun), never the clock's.
const pushPrefix = "push:"

// pushKeep holds a day's keys past that day and its catch-up.
const pushKeep = 48 * time.Hour

// setsAtOnce bounds the timers a run sets at once.
const setsAtOnce = 16

func pushKey(day string, s subscriber) string {
	return fmt.Sprintf("%s%s:%d:%d", pushPrefix, day, s.ChatID, s.ThreadID)
}

// parsePushKey reads "push:<day>:<chat>:<thread>".
func parsePushKey(k string) (day string, s subscriber, ok bool) {
	rest, found := strings.CutPrefix(k, pushPrefix)
	day, rest, found2 := strings.Cut(rest, ":")
	chat, thread, found3 := strings.Cut(rest, ":")
	c, err1 := strconv.ParseInt(chat, 10, 64)
	t, err2 := strconv.Atoi(thread)
	return day, subscriber{ChatID: c, ThreadID: t}, found && found2 && found3 && err1 == nil && err2 == nil
}

// pushed is what a push timer carries: the day, the chat's language and
// its message in it, or Moved: the chat's day was pushed under its earlier
// id (a group that became a supergroup), and the timer only holds its key.
type pushed struct {
	Day   string   `json:"day"`
	Lang  app.Lang `json:"lang,omitempty"`
	Text  string   `json:"text,omitempty"` // empty: rendered when it fires (a message past the payload's bound)
	Moved bool     `json:"moved,omitempty"`
}

// dailyPush sets the day of its slot's timers, however late or by whom it
// runs.
func (m *module) dailyPush(ctx context.Context, run app.CronRun) error {
	set, taken, err := m.push(ctx, run.Slot)
	m.log.Info("lolschedule daily push", "set", set, "already_set", taken)
	return err
}

func (m *module) push(ctx context.Context, slot time.Time) (set, taken int, err error) {
	from, to := dayOf(slot)
	day := from.Format(time.DateOnly)
	pushedBefore := m.oldMarks(ctx, day)

	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return 0, 0, fmt.Errorf("today's schedule: %w", err)
	}
	if len(ms) == 0 && !m.pushEmpty {
		return 0, 0, nil
	}
	dg := m.digest(from, ms)
	subs, err := m.subscribers(ctx)
	if err != nil {
		return 0, 0, err
	}
	var nset, ntaken atomic.Int64
	var g errgroup.Group
	g.SetLimit(setsAtOnce)
	for _, s := range subs {
		if pushedBefore[s] {
			ntaken.Add(1) // pushed by the build before this one
			continue
		}
		g.Go(func() error {
			said, err := dg.to(ctx, s.ChatID)
			if err != nil { // its language unread: a retry sets it
				return fmt.Errorf("chat %d: %w", s.ChatID, err)
			}
			payload, _ := json.Marshal(pushed{Day: day, Lang: said.lang, Text: said.text}) // plain fields
			if len(payload) > app.MaxTimerPayload {
				payload, _ = json.Marshal(pushed{Day: day, Lang: said.lang})
			}
			_, err = m.timers.Set(ctx, app.Timer{Key: pushKey(day, s), ChatID: s.ChatID, ThreadID: s.ThreadID,
				At: m.now(), Payload: payload, Keep: pushKeep})
			switch {
			case errors.Is(err, app.ErrTimerExists):
				ntaken.Add(1) // set by an earlier run: pending, sent or being sent
			case err != nil:
				return fmt.Errorf("chat %d: %w", s.ChatID, err)
			default:
				nset.Add(1)
			}
			return nil
		})
	}
	err = g.Wait() // a run told again sets only what is missing
	return int(nset.Load()), int(ntaken.Load()), err
}

// onTimer sends a chat's day: a chat gone is forgotten by the core (and
// its timers with it); a send refused for good is final for the day; any
// other failure is tried again at the next tick.
func (m *module) onTimer(ctx context.Context, t app.Timer) error {
	var p pushed
	if err := json.Unmarshal(t.Payload, &p); err != nil || !strings.HasPrefix(t.Key, pushPrefix) {
		m.log.Error("lolschedule: a timer not of a push: dropped", "key", t.Key)
		return nil
	}
	if p.Moved {
		return nil
	}
	day, err := time.ParseInLocation(time.DateOnly, p.Day, ict)
	if err != nil {
		m.log.Error("lolschedule: a push of no day: dropped", "key", t.Key)
		return nil
	}
	w := m.texts.In(p.Lang)
	if p.Text == "" {
		if p.Text, err = m.dayText(ctx, w, day); err != nil {
			return err
		}
	}
	msg, err := m.bot.Send(ctx, app.Message{ChatID: t.ChatID, ThreadID: t.ThreadID, Text: p.Text, ParseMode: "HTML", NoPreview: true, Bulk: true, Keyboard: pushKeyboard(w, day)})
	switch {
	case err == nil:
		if msg != nil && msg.Chat.ID != 0 && msg.Chat.ID != t.ChatID {
			// The group became a supergroup on the way (the client resent
			// there): the day is taken under the new id too. The message
			// is out: a failure here is logged, never a reason to send it
			// again.
			if err := m.holdMoved(ctx, p.Day, subscriber{ChatID: msg.Chat.ID, ThreadID: t.ThreadID}); err != nil {
				m.log.Warn("lolschedule: the day's push is not held under the chat's new id; a run of the day again may push there", "chat_id", msg.Chat.ID, "err", err)
			}
		}
		return nil
	case errors.Is(err, app.ErrChatGone), errors.Is(err, app.ErrBlocked), errors.Is(err, app.ErrChatNotFound):
		return nil // the core has forgotten the chat as the answer came in
	case app.Permanent(err):
		// Final for this send, not for the chat (a closed topic may reopen,
		// rights may come back): the subscription stays, the day is done.
		m.log.Info("lolschedule: today's push refused in this chat; the subscription stays", "chat_id", t.ChatID, "thread_id", t.ThreadID, "err", err)
		if errors.Is(err, app.ErrNoRights) {
			m.tellOwnerOnce(ctx, t.ChatID)
		}
		return nil
	}
	return err
}

// dayText renders day's message in w's language when its timer could not
// carry it.
func (m *module) dayText(ctx context.Context, w app.Words, day time.Time) (string, error) {
	from, to := dayOf(day)
	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return "", fmt.Errorf("the day's schedule: %w", err)
	}
	return dayMessage(w, from, ms), nil
}

// holdMoved takes the day's key under a chat's new id with a timer that
// sends nothing, so that a run told again does not push there.
func (m *module) holdMoved(ctx context.Context, day string, s subscriber) error {
	payload, _ := json.Marshal(pushed{Day: day, Moved: true}) // plain fields
	_, err := m.timers.Set(ctx, app.Timer{Key: pushKey(day, s), ChatID: s.ChatID, ThreadID: s.ThreadID,
		At: m.now(), Payload: payload, Keep: pushKeep})
	if err != nil && !errors.Is(err, app.ErrTimerExists) {
		return err
	}
	return nil
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
