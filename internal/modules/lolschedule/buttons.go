package lolschedule

import (
	"context"
	"errors"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The module's buttons: "sched:<kind>[:<yyyymmdd>]" (app.CallbackData). A
// day or week button names the day it shows, so it is never stale; the
// push's button names the push's day, and is stale once that day is over.
const (
	callbackPrefix = "sched:"
	kindDay        = "d" // show that day
	kindWeek       = "w" // show the week starting that Monday
	kindPush       = "p" // the push's day in full, with the day buttons
	kindUnsub      = "u" // unsubscribe this chat or topic
	dateLayout     = "20060102"
)

// data is a button's callback data, of fixed width (a test covers every
// kind): the kind, then the day it names, if any (none: today).
func data(kind string, day ...time.Time) app.CallbackData {
	d := app.Data(callbackPrefix, kind)
	for _, t := range day {
		d.Fields = append(d.Fields, t.Format(dateLayout))
	}
	return d
}

// dayKeyboard pages a day view: the day before, today, the day after.
func dayKeyboard(w app.Words, day time.Time) *models.InlineKeyboardMarkup {
	prev, next := day.AddDate(0, 0, -1), day.AddDate(0, 0, 1)
	return app.MustKeyboard([]app.Button{
		{Text: "◀ " + prev.Format("02/01"), Data: data(kindDay, prev)},
		{Text: w.T("button.today"), Data: data(kindDay)},
		{Text: next.Format("02/01") + " ▶", Data: data(kindDay, next)},
	})
}

// weekKeyboard pages a week view by week.
func weekKeyboard(w app.Words, monday time.Time) *models.InlineKeyboardMarkup {
	prev, next := monday.AddDate(0, 0, -7), monday.AddDate(0, 0, 7)
	return app.MustKeyboard([]app.Button{
		{Text: "◀ " + w.T("button.week_of", app.Args{"Day": prev.Format("02/01")}), Data: data(kindWeek, prev)},
		{Text: w.T("button.this_week"), Data: data(kindWeek)},
		{Text: w.T("button.week_of", app.Args{"Day": next.Format("02/01")}) + " ▶", Data: data(kindWeek, next)},
	})
}

func pushKeyboard(w app.Words, day time.Time) *models.InlineKeyboardMarkup {
	return app.MustKeyboard([]app.Button{{Text: w.T("button.full_day"), Data: data(kindPush, day)}})
}

func unsubKeyboard(w app.Words) *models.InlineKeyboardMarkup {
	return app.MustKeyboard([]app.Button{{Text: w.T("button.unsubscribe"), Data: data(kindUnsub)}})
}

// view is a day or week message: its text and how to send it.
type view struct {
	text string
	html bool
	kb   *models.InlineKeyboardMarkup
}

func (v view) message() app.Message {
	m := app.Message{Text: v.text, NoPreview: true, Keyboard: v.kb}
	if v.html {
		m.ParseMode = models.ParseModeHTML
	}
	return m
}

func (v view) edit() app.Edit {
	e := app.Edit{Text: v.text, Keyboard: v.kb, NoPreview: true}
	if v.html {
		e.ParseMode = models.ParseModeHTML
	}
	return e
}

func (m *module) dayView(ctx context.Context, w app.Words, t time.Time) (view, error) {
	from, to := dayOf(t)
	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return view{}, err
	}
	if len(ms) == 0 {
		return view{text: noMatchesText(w, from), kb: dayKeyboard(w, from)}, nil
	}
	title := w.T("day_title", app.Args{"Day": dayLabel(w, from)})
	return view{text: render(w, title, ms, false), html: true, kb: dayKeyboard(w, from)}, nil
}

func (m *module) weekView(ctx context.Context, w app.Words, t time.Time) (view, error) {
	from, to := weekOf(t)
	ms, err := m.matches(ctx, from, to)
	if err != nil {
		return view{}, err
	}
	last := to.AddDate(0, 0, -1)
	thisWeek, _ := weekOf(m.now())
	if len(ms) == 0 {
		span := app.Args{"From": from.Format("02/01"), "To": last.Format("02/01")}
		if from.Equal(thisWeek) {
			return view{text: w.T("no_matches_this_week", span), kb: weekKeyboard(w, from)}, nil
		}
		return view{text: w.T("no_matches_week", span), kb: weekKeyboard(w, from)}, nil
	}
	span := app.Args{"From": from.Format("02/01"), "To": last.Format("02/01/2006")}
	title := w.T("week_title", span)
	if from.Equal(thisWeek) {
		title = w.T("this_week_title", span)
	}
	return view{text: render(w, title, ms, true), html: true, kb: weekKeyboard(w, from)}, nil
}

// onButton handles the module's buttons; a view is edited in place.
func (m *module) onButton(ctx context.Context, req *app.CallbackRequest) error {
	d, err := app.ParseCallback(callbackPrefix, req.Data, 1, 2)
	if err != nil {
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	kind, day := d.Fields[0], m.now()
	if len(d.Fields) == 2 {
		if day, err = time.ParseInLocation(dateLayout, d.Fields[1], ict); err != nil {
			return req.Answer(ctx, req.T(app.StaleButton))
		}
	}
	var v view
	switch kind {
	case kindDay:
		v, err = m.dayView(ctx, req.Words, day)
	case kindWeek:
		v, err = m.weekView(ctx, req.Words, day)
	case kindPush:
		today, _ := dayOf(m.now())
		if !day.Equal(today) {
			return req.Answer(ctx, req.T("old_push", app.Args{"Day": day.Format("02/01")}))
		}
		v, err = m.dayView(ctx, req.Words, day)
	case kindUnsub:
		removed, err := m.unsubscribe(ctx, subscriber{ChatID: req.ChatID, ThreadID: req.ThreadID})
		switch {
		case err != nil:
			return err
		case !removed:
			return req.Answer(ctx, req.T("not_subscribed"))
		}
		return req.Edit(ctx, req.T("unsubscribed"), nil)
	default:
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	var apiErr *apiError
	switch {
	case errors.As(err, &apiErr):
		m.log.Warn("schedule unavailable", "err", err)
		return req.Answer(ctx, req.T("unavailable"))
	case err != nil:
		return err
	}
	return req.EditMessage(ctx, v.edit())
}
