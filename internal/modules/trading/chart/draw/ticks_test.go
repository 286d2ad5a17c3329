package draw

import (
	"slices"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

func labels(ts []tick) []tick {
	var out []tick
	for _, t := range ts {
		if t.label != "" {
			out = append(out, t)
		}
	}
	return out
}

// The time axis is labelled in the chart's zone, on its round times (a
// midnight there, a whole hour, the first of a month), with at most
// maxTimeLabels labels and never the same label twice in a row.
func TestTimeLabelsFallOnRoundTimesOfTheChartsZone(t *testing.T) {
	zone := time.FixedZone("ICT", 7*3600)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) // 07:00 in ICT
	tests := []struct {
		name   string
		span   time.Duration
		layout string
		round  func(time.Time) bool
	}{
		{"a day as times of day", 24 * time.Hour, "15:04", func(t time.Time) bool { return t.Minute() == 0 && t.Second() == 0 }},
		{"a week as dates", 7 * day, "Jan 02", func(t time.Time) bool { return t.Hour() == 0 && t.Minute() == 0 }},
		{"a year as months", 365 * day, "Jan 2006", func(t time.Time) bool { return t.Day() == 1 && t.Hour() == 0 }},
		{"four hours as dates", 4 * time.Hour, "Jan 02", func(t time.Time) bool { return t.Minute() == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := float64(t0.Unix()), float64(t0.Add(tt.span).Unix())
			got := labels(timeTicks(lo, hi, zone, tt.layout))
			if len(got) == 0 || len(got) > maxTimeLabels {
				t.Fatalf("%d labels; want 1 to %d", len(got), maxTimeLabels)
			}
			for i, tk := range got {
				at := time.Unix(int64(tk.v), 0).In(zone)
				if tk.v < lo || tk.v > hi || !tt.round(at) || tk.label != at.Format(tt.layout) {
					t.Errorf("label %q at %s", tk.label, at)
				}
				if i > 0 && tk.label == got[i-1].label {
					t.Errorf("%q twice in a row", tk.label)
				}
			}
		})
	}
}

// The money axis is labelled at round amounts in the market's money, at
// most maxMoneyLabels of them, all different as the market writes them.
func TestMoneyLabelsAreRoundAmountsInTheMarketsMoney(t *testing.T) {
	vnd := chart.Format{Suffix: " VND", Places: 0}
	tests := []struct {
		name   string
		lo, hi float64
		money  chart.Format
		want   []string
	}{
		{"bitcoin", 58000, 66500, usd, []string{"$58,000", "$60,000", "$62,000", "$64,000", "$66,000"}},
		{"a cheap coin", 0.0123, 0.0151, usd, []string{"$0.01300", "$0.01400", "$0.01500"}},
		{"gold in dong", 95_000_000, 96_000_000, vnd, []string{"95,000,000 VND", "95,500,000 VND", "96,000,000 VND"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tk := range labels(moneyTicks(tt.lo, tt.hi, tt.money)) {
				got = append(got, tk.label)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("labels %q; want %q", got, tt.want)
			}
		})
	}
}
