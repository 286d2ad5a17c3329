package draw

import (
	"math"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// tick is a mark on an axis; one with a label is major (and has a grid
// line), one without is minor.
type tick struct {
	v     float64
	label string
}

// Most labels an axis carries: fewer read better on a phone.
const (
	maxMoneyLabels = 5
	maxTimeLabels  = 5
)

// moneyTicks marks [lo, hi] at the smallest round step (1, 2 or 5 times a
// power of ten) that gives at most maxMoneyLabels labels, all different
// in the market's money, with minor ticks between them.
func moneyTicks(lo, hi float64, money chart.Format) []tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return nil
	}
	for e := math.Floor(math.Log10(span)) - 2; ; e++ {
		for _, m := range []struct{ step, minors float64 }{{1, 5}, {2, 4}, {5, 5}} {
			step := m.step * math.Pow(10, e)
			if t, ok := moneyAt(lo, hi, step, step/m.minors, money); ok {
				return t
			}
		}
	}
}

func moneyAt(lo, hi, step, minor float64, money chart.Format) ([]tick, bool) {
	if math.Floor(hi/step)-math.Ceil(lo/step)+1 > maxMoneyLabels {
		return nil, false
	}
	var out []tick
	prev := ""
	// Counted, not stepped by adding: far from zero, lo/minor can be
	// past where a float64 still counts by ones.
	first := math.Ceil(lo/minor) * minor
	for j := range maxMoneyLabels * 6 {
		v := first + float64(j)*minor
		if v > hi {
			break
		}
		// v is a major tick when it is a whole number of steps (within
		// rounding).
		if k := math.Round(v / step); math.Abs(v-k*step) < minor/2 {
			v = k * step
			label := money.String(v)
			if label == prev {
				return nil, false
			}
			out, prev = append(out, tick{v, label}), label
			continue
		}
		out = append(out, tick{v: v})
	}
	return out, true
}

// timeStep is a spacing of the time axis' labels, with its minor ticks':
// a duration, or a number of calendar months.
type timeStep struct {
	d, minor time.Duration
	months   int
}

const day = 24 * time.Hour

var timeSteps = []timeStep{
	{d: 15 * time.Minute, minor: 5 * time.Minute},
	{d: 30 * time.Minute, minor: 10 * time.Minute},
	{d: time.Hour, minor: 15 * time.Minute},
	{d: 2 * time.Hour, minor: 30 * time.Minute},
	{d: 3 * time.Hour, minor: time.Hour},
	{d: 6 * time.Hour, minor: time.Hour},
	{d: 12 * time.Hour, minor: 3 * time.Hour},
	{d: day, minor: 6 * time.Hour},
	{d: 2 * day, minor: 12 * time.Hour},
	{d: 7 * day, minor: day},
	{d: 14 * day, minor: 7 * day},
	{months: 1, minor: 7 * day},
	{months: 2}, {months: 3}, {months: 6}, {months: 12}, {months: 24}, {months: 60}, {months: 120},
}

// timeTicks marks [lo, hi] (Unix seconds) at the times of day or dates in
// zone that the smallest step giving at most maxTimeLabels labels, each
// different from the one before it as layout writes them, falls on.
func timeTicks(lo, hi float64, zone *time.Location, layout string) []tick {
	var out []tick
	for _, s := range timeSteps {
		major, ok := stepTimes(lo, hi, zone, s.d, s.months, maxTimeLabels)
		if !ok {
			continue
		}
		out = out[:0]
		prev := ""
		for _, t := range major {
			label := t.In(zone).Format(layout)
			ok = ok && label != prev
			out, prev = append(out, tick{float64(t.Unix()), label}), label
		}
		if !ok {
			continue
		}
		if s.minor > 0 {
			minor, _ := stepTimes(lo, hi, zone, s.minor, 0, -1)
			for _, t := range minor {
				out = append(out, tick{v: float64(t.Unix())})
			}
		}
		break
	}
	return out
}

// stepTimes are the times in [lo, hi] on a step of d (from midnight in
// zone; a week's from a Monday) or of months (from January); not ok past
// limit of them (a limit below zero is none).
func stepTimes(lo, hi float64, zone *time.Location, d time.Duration, months, limit int) (out []time.Time, ok bool) {
	first, last := time.Unix(int64(math.Ceil(lo)), 0).In(zone), time.Unix(int64(math.Floor(hi)), 0)
	full := func() bool { return limit >= 0 && len(out) > limit }
	if months > 0 {
		y, m, _ := first.Date()
		t := time.Date(y, m, 1, 0, 0, 0, 0, zone)
		for ; !t.After(last); t = t.AddDate(0, 1, 0) {
			if !t.Before(first) && (int(t.Month())-1)%months == 0 {
				if out = append(out, t); full() {
					return nil, false
				}
			}
		}
		return out, true
	}
	_, off := first.Zone()
	sec, local := int64(d/time.Second), first.Unix()+int64(off)
	phase := int64(0)
	if d%(7*day) == 0 {
		phase = 3 * int64(day/time.Second) // 1 January 1970 was a Thursday
	}
	n := (local + phase + sec - 1) / sec // the first step at or after lo
	for u := n*sec - phase - int64(off); u <= last.Unix(); u += sec {
		if out = append(out, time.Unix(u, 0).In(zone)); full() {
			return nil, false
		}
	}
	return out, true
}
