package lolschedule

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// ict is Vietnam's time, the schedule's days' (and the push's) clock.
var ict = locale.Vietnam

type team struct {
	Name, Code string
	Outcome    string
	GameWins   int
}

type match struct {
	ID     string
	Start  time.Time
	State  string
	League string
	Block  string
	BestOf int
	Teams  [2]team
}

// selectMatches keeps the matches starting in [from, to), once each, in
// start order.
func selectMatches(events []eventDoc, from, to time.Time) []match {
	seen := map[string]bool{}
	var out []match
	for _, e := range events {
		if e.Type != "match" || e.Match == nil || len(e.Match.Teams) != 2 {
			continue
		}
		if e.StartTime.Before(from) || !e.StartTime.Before(to) {
			continue
		}
		id := e.Match.ID
		if id == "" {
			id = e.StartTime.String() + e.League.Slug
		}
		if seen[id] {
			continue // pages overlap at their edges
		}
		seen[id] = true
		m := match{ID: id, Start: e.StartTime, State: e.State, League: e.League.Name, Block: e.BlockName, BestOf: e.Match.Strategy.Count}
		for i, t := range e.Match.Teams {
			m.Teams[i] = team{Name: t.Name, Code: t.Code}
			if t.Result != nil {
				m.Teams[i].Outcome, m.Teams[i].GameWins = t.Result.Outcome, t.Result.GameWins
			}
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b match) int { return a.Start.Compare(b.Start) })
	return out
}

func teamLabel(w app.Words, t team) string {
	if t.Code != "" && t.Code != "TBD" {
		return t.Code
	}
	if t.Name != "" {
		return t.Name
	}
	return w.T("match.tbd")
}

// weekdays are the weekday keys, Sunday first as time.Weekday counts.
var weekdays = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// weekday is t's weekday, short, as w reads it (Wed, T4).
func weekday(w app.Words, t time.Time) string { return w.T("weekday." + weekdays[t.Weekday()]) }

// dayLabel is a day in Vietnam as the schedule names it: Wed 25/11/2026,
// T4 25/11/2026.
func dayLabel(w app.Words, t time.Time) string {
	return weekday(w, t.In(ict)) + " " + t.In(ict).Format("02/01/2006")
}

// line renders one match: Vietnam's time (the schedule's titles say so,
// whatever the chat's /timezone: its days are Vietnam's), teams, best-of,
// state or result.
func (m match) line(w app.Words, withDate bool) string {
	start := m.Start.In(ict)
	when := start.Format("15:04")
	if withDate {
		when = weekday(w, start) + " " + start.Format("02/01 15:04")
	}
	a, b := html.EscapeString(teamLabel(w, m.Teams[0])), html.EscapeString(teamLabel(w, m.Teams[1]))
	wins := func(i int) string { return strconv.Itoa(m.Teams[i].GameWins) }
	var status string
	switch m.State {
	case "completed":
		// The winner in bold: the score alone reads the same both ways.
		wa, wb := a, b
		switch {
		case m.Teams[0].Outcome == "win":
			wa = "<b>" + a + "</b>"
		case m.Teams[1].Outcome == "win":
			wb = "<b>" + b + "</b>"
		}
		status = w.T("match.final", app.Args{"A": wa, "B": wb, "WinsA": wins(0), "WinsB": wins(1)})
	case "inProgress":
		status = w.T("match.live", app.Args{"A": a, "B": b, "WinsA": wins(0), "WinsB": wins(1)})
	default:
		status = w.T("match.upcoming", app.Args{"A": a, "B": b})
	}
	bo := ""
	if m.BestOf > 0 {
		bo = fmt.Sprintf(" · Bo%d", m.BestOf)
	}
	return fmt.Sprintf("%s  %s%s", when, status, bo)
}

// render groups matches by league, leagues in order of their first match.
func render(w app.Words, title string, ms []match, withDate bool) string {
	var b strings.Builder
	b.WriteString("<b>" + html.EscapeString(title) + "</b>\n")
	byLeague := map[string][]match{}
	var order []string
	for _, m := range ms {
		if _, ok := byLeague[m.League]; !ok {
			order = append(order, m.League)
		}
		byLeague[m.League] = append(byLeague[m.League], m)
	}
	for _, league := range order {
		b.WriteString("\n🏆 <b>" + html.EscapeString(cmp.Or(league, w.T("match.other_league"))) + "</b>\n")
		for _, m := range byLeague[league] {
			b.WriteString(m.line(w, withDate) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
