package trading

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Period is a chart's span and how its bars are sampled.
type Period struct {
	Name string        // "1d", "7d", "30d", "1y"
	Span time.Duration // how far back it reaches
	// Fresh is how long a drawn chart of it is reused: a day's chart moves
	// by the minute, a year's by the day.
	Fresh time.Duration
	// TimeFormat lays out its X axis.
	TimeFormat string
}

// The periods a chart command takes.
var (
	Day   = Period{Name: "1d", Span: 24 * time.Hour, Fresh: 2 * time.Minute, TimeFormat: "15:04"}
	Week  = Period{Name: "7d", Span: 7 * 24 * time.Hour, Fresh: 10 * time.Minute, TimeFormat: "Jan 02"}
	Month = Period{Name: "30d", Span: 30 * 24 * time.Hour, Fresh: 30 * time.Minute, TimeFormat: "Jan 02"}
	Year  = Period{Name: "1y", Span: 365 * 24 * time.Hour, Fresh: time.Hour, TimeFormat: "Jan 2006"}
)

// AllPeriods are every period, in button order.
var AllPeriods = []Period{Day, Week, Month, Year}

// History is what a source answered for a period: bars oldest first.
type History struct {
	Bars []chart.Bar
	OHLC bool // the bars have real opens, highs and lows
}

// HistorySource is one provider of past prices, tried in order as the
// price sources are. Note, when set, is the key of the market's words
// printed under the chart (a conversion, a stand-in for the real market).
type HistorySource struct {
	Name string
	Note string
	Bars func(ctx context.Context, sym string, p Period, now time.Time) (History, error)
}

// Why a chart has no picture.
var (
	ErrNoHistory = errors.New("no history source answered")
	ErrTooFew    = errors.New("too few prices for the period")
	// ErrBadHistory: a source answered, with prices that cannot be right
	// (zero, negative, not a number), and none answered better.
	ErrBadHistory = errors.New("no history source answered usable prices")
)

// FetchHistory asks the sources in order and keeps the first answer with
// enough prices; a source that answers too few is passed over like a
// failed one (a new listing, a holiday week), and said so when none has
// more. An answer with a price that cannot be right is that source's
// answer, not an outage: the next source is asked at once, and nothing
// is retried.
func FetchHistory(ctx context.Context, srcs []HistorySource, sym string, p Period, now time.Time, log func(src string, err error)) (History, HistorySource, error) {
	unknown, few, bad := 0, 0, 0
	for _, s := range srcs {
		h, err := s.Bars(ctx, sym, p, now)
		if err == nil {
			err = checkBars(h.Bars)
		}
		switch {
		case errors.Is(err, ErrUnknown):
			unknown++
			continue
		case errors.Is(err, ErrPriceInvalid):
			bad++
			log(s.Name, err)
			continue
		case err != nil:
			log(s.Name, err)
			continue
		}
		h.Bars = within(h.Bars, now.Add(-p.Span), now)
		if len(h.Bars) < chart.MinBars {
			few++
			log(s.Name, fmt.Errorf("%w: %d prices", ErrTooFew, len(h.Bars)))
			continue
		}
		return h, s, nil
	}
	switch {
	case unknown == len(srcs):
		return History{}, HistorySource{}, ErrUnknownSymbol
	case few > 0:
		return History{}, HistorySource{}, ErrTooFew
	case bad > 0:
		return History{}, HistorySource{}, ErrBadHistory
	}
	return History{}, HistorySource{}, ErrNoHistory
}

// checkBars refuses an answer with a price that cannot be right: not a
// finite positive number, or a high under its low. A source's answer is
// checked, never drawn as is.
func checkBars(bars []chart.Bar) error {
	for i, b := range bars {
		for _, v := range []float64{b.O, b.H, b.L, b.C} {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: bar %d has a price of %v", ErrPriceInvalid, i, v)
			}
		}
		if b.H < b.L {
			return fmt.Errorf("%w: bar %d's high %v is under its low %v", ErrPriceInvalid, i, b.H, b.L)
		}
	}
	return nil
}

// within keeps the bars from..to, sorted oldest first, one per time.
func within(bars []chart.Bar, from, to time.Time) []chart.Bar {
	out := slices.DeleteFunc(slices.Clone(bars), func(b chart.Bar) bool { return b.T.Before(from) || b.T.After(to) })
	slices.SortStableFunc(out, func(a, b chart.Bar) int { return a.T.Compare(b.T) })
	return dedupe(out)
}

// ParsePeriod reads a period argument ("" is def) among those allowed.
func ParsePeriod(s string, allowed []Period, def Period) (Period, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return def, true
	}
	for _, p := range allowed {
		if p.Name == s {
			return p, true
		}
	}
	return Period{}, false
}

// Label is how a button or a title in w's language names p: English as
// it is typed ("7d"), Vietnamese in words ("7 ngày").
func (p Period) Label(w app.Words) string { return w.T("trading.chart.periods." + p.Name) }

// Names are the periods' names, in their order: "1d", "7d".
func Names(ps []Period) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

// PeriodNames is "1d, 7d, 30d or 1y", or the reader's word for "or".
func PeriodNames(ps []Period, or string) string {
	names := Names(ps)
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + or + " " + names[len(names)-1]
}

// TimeLayout is a chart's time axis layout as lang reads it: English as
// the period says ("Jan 02"), Vietnamese with day before month and no
// English month names ("02/01", "01/2006").
func TimeLayout(lang app.Lang, layout string) string {
	if lang != locale.Vietnamese {
		return layout
	}
	switch layout {
	case "Jan 02":
		return "02/01"
	case "Jan 2006":
		return "01/2006"
	}
	return layout
}

// ICT is the markets' time zone: a day closes at midnight in Vietnam, and
// the pictures of charts (shared by every reader) label their times in it.
var ICT = locale.Vietnam
