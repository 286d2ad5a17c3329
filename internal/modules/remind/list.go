package remind

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

const callbackPrefix = "remind:"

// cancelData is a Cancel button's data: the reminder's user and id, what
// its timer key is made of (well under Telegram's 64 bytes).
func cancelData(user int64, id string) app.CallbackData {
	return app.Data(callbackPrefix, strconv.FormatInt(user, 10), id)
}

// listShown bounds a reminder's text in the list, so that 50 lines fit a
// message; perRow is how many Cancel buttons share a row.
const (
	listShown = 40
	perRow    = 4
)

func (m *module) list(ctx context.Context, r *app.Request) error {
	timers, err := m.timers.List(ctx, timerKey(r.UserID, ""))
	if err != nil {
		return err
	}
	timers = slices.DeleteFunc(timers, func(t app.Timer) bool { return t.ChatID != r.ChatID })
	if len(timers) == 0 {
		_, err := r.Reply(ctx, r.T("none_here"))
		return err
	}
	slices.SortFunc(timers, func(a, b app.Timer) int { return a.At.Compare(b.At) })
	now := m.now()
	var b strings.Builder
	b.WriteString(r.T("list_head", app.Args{"Zone": r.ZoneName()}) + "\n")
	var rows [][]app.Button
	for i, t := range timers {
		var p payload
		_ = json.Unmarshal(t.Payload, &p) // an unreadable one lists as empty: it can still be cancelled
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, listWhen(r.Words, t.At, now), shorten(p.Text))
		id := strings.TrimPrefix(t.Key, timerKey(r.UserID, ""))
		if i%perRow == 0 {
			rows = append(rows, nil)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], app.Button{Text: r.T("cancel_n", app.Args{"N": strconv.Itoa(i + 1)}), Data: cancelData(r.UserID, id)})
	}
	kb, err := app.Keyboard(rows...)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, b.String(), kb)
	return err
}

// listWhen is a time on w's reader's clock, short: as they read a date
// and time (locale.DateTime), its time only when today.
func listWhen(w app.Words, at, now time.Time) string {
	l := w.Local(at)
	if l.Format(time.DateOnly) == w.Local(now).Format(time.DateOnly) {
		return l.Format("15:04")
	}
	return locale.DateTime(w.Lang, l)
}

func shorten(s string) string {
	if utf8.RuneCountInString(s) <= listShown {
		return s
	}
	return string([]rune(s)[:listShown-1]) + "…"
}

// cancel is a Cancel press: the author (of a group's reminder, an admin
// of the group: app.CallbackRequest.ActsFor) or a bot admin cancels, and
// is told the truth the store decided (cancelled for good, or too late).
func (m *module) cancel(ctx context.Context, c *app.CallbackRequest) error {
	d, err := app.ParseCallback(callbackPrefix, c.Data, 2, 2)
	if err != nil {
		return c.Answer(ctx, c.T(app.StaleButton))
	}
	user, err := d.Int(0)
	if err != nil {
		return c.Answer(ctx, c.T(app.StaleButton))
	}
	if c.Role < app.RoleAdmin {
		if mine, err := c.ActsFor(ctx, user); err != nil {
			return err
		} else if !mine {
			return c.Answer(ctx, c.T("not_yours"))
		}
	}
	key := timerKey(user, d.Fields[1])
	again := m.pressed(ctx, user, key, c.UpdateID())
	outcome, err := m.timers.Cancel(ctx, key)
	if err != nil {
		return err
	}
	switch {
	case outcome == app.Cancelled, outcome == app.CancelledBefore && again:
		// A press delivered again whose first run cancelled is confirmed
		// again, not told the reminder is gone.
		_, err := c.Reply(ctx, c.T("cancelled"))
		return err
	case outcome == app.TooLate:
		return c.Answer(ctx, c.T("too_late"))
	}
	return c.Answer(ctx, c.T("gone"))
}
