package trading

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// dedupe keeps the last bar of each time (a source that repeats one).
func dedupe(sorted []chart.Bar) []chart.Bar {
	out := sorted[:0]
	for _, b := range sorted {
		if n := len(out); n > 0 && out[n-1].T.Equal(b.T) {
			out[n-1] = b
			continue
		}
		out = append(out, b)
	}
	return out
}

// Float reads a price as a chart draws it: the sources send numbers as
// JSON numbers or as strings. Charts are pictures, so float64 is enough
// here (trades never pass through it). "Infinity" and "NaN", which
// strconv reads, are no prices.
func Float(v any) (float64, error) {
	var f float64
	var err error
	switch x := v.(type) {
	case json.Number:
		f, err = x.Float64()
	case string:
		f, err = strconv.ParseFloat(x, 64)
	case float64:
		f = x
	default:
		return 0, fmt.Errorf("%w: %v is not a number", ErrPriceInvalid, v)
	}
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%w: %v is not a number", ErrPriceInvalid, v)
	}
	return f, nil
}

// UnixTime reads a time in seconds or milliseconds since the epoch, as a
// number or a string (sources differ; a time in ms is past year 33658 in s).
func UnixTime(v any) (time.Time, error) {
	f, err := Float(v)
	if err != nil || f <= 0 {
		return time.Time{}, fmt.Errorf("%w: time %v", ErrPriceInvalid, v)
	}
	if f > 1e12 {
		return time.UnixMilli(int64(f)).UTC(), nil
	}
	return time.Unix(int64(f), 0).UTC(), nil
}

// ReadBar reads one OHLC bar whose fields are numbers or strings, its
// time as UnixTime reads one.
func ReadBar(t, o, hi, lo, c any) (chart.Bar, error) {
	var b chart.Bar
	var err error
	if b.T, err = UnixTime(t); err != nil {
		return b, err
	}
	for _, f := range []struct {
		dst *float64
		v   any
	}{{&b.O, o}, {&b.H, hi}, {&b.L, lo}, {&b.C, c}} {
		if *f.dst, err = Float(f.v); err != nil {
			return b, err
		}
	}
	return b, nil
}

// Last is the newest bar of h (h has at least one).
func (h History) Last() chart.Bar { return h.Bars[len(h.Bars)-1] }

// Change is the move over the period: the first bar's open (its price
// when the source has no OHLC) to the last close.
func (h History) Change() (first, last float64) {
	return h.Bars[0].O, h.Last().C
}
