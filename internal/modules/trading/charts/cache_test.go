package charts

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// cacheKeys is the chart cache's keys.
func cacheKeys(t *testing.T, c *Charts) []string {
	t.Helper()
	keys, err := c.Store.List(t.Context(), chartPrefix)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// The chart cache never grows without bound: however many distinct
// charts a long life draws, the store holds at most Keep pictures, the
// stale, superseded and old-shaped ones deleted from the store (not just
// left unread) when a chart is written; a fresh one is still read back.
func TestTheChartCacheStaysBounded(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	type ask struct {
		sym   string
		p     trading.Period
		after time.Duration // since t0
	}
	var many []ask // 500 symbols over 4 periods, a second apart
	for i := range 2000 {
		many = append(many, ask{fmt.Sprintf("S%d", i/4), trading.AllPeriods[i%4], time.Duration(i) * time.Second})
	}
	tests := []struct {
		name   string
		legacy []string // keys of the earlier shape, there before
		asks   []ask
		draws  int // drawings made
		keys   []string
	}{
		{"2000 distinct charts leave Keep", nil, many, 2000, nil},
		{"a fresh chart is read, not drawn", nil, []ask{{"BTC", trading.Day, 0}, {"BTC", trading.Day, time.Minute}}, 1,
			[]string{"chart:BTC:1d:" + fmt.Sprint(t0.UnixMilli())}},
		{"a stale chart is redrawn and the stale one deleted", nil, []ask{{"BTC", trading.Day, 0}, {"BTC", trading.Day, 2 * time.Minute}}, 2,
			[]string{"chart:BTC:1d:" + fmt.Sprint(t0.Add(2*time.Minute).UnixMilli())}},
		{"charts past their freshness are deleted by another's write", nil, []ask{{"BTC", trading.Day, 0}, {"ETH", trading.Year, 0}, {"SOL", trading.Week, 5 * time.Minute}}, 3,
			[]string{"chart:ETH:1y:" + fmt.Sprint(t0.UnixMilli()), "chart:SOL:7d:" + fmt.Sprint(t0.Add(5*time.Minute).UnixMilli())}},
		{"the earlier key shape is deleted", []string{"chart:BTC:1d", "chart:ETH:1y"}, []ask{{"BTC", trading.Day, 0}}, 1,
			[]string{"chart:BTC:1d:" + fmt.Sprint(t0.UnixMilli())}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			draws := 0
			c := fixedCharts(t0, drawerFunc(func(context.Context, chart.Chart) ([]byte, error) {
				draws++
				return []byte("png"), nil
			}))
			c.Keep = 16
			for _, k := range tt.legacy {
				if err := c.Store.PutJSON(t.Context(), k, Picture{PNG: []byte("old"), At: t0}); err != nil {
					t.Fatal(err)
				}
			}
			most := 0
			for _, a := range tt.asks {
				now := t0.Add(a.after)
				c.Now = func() time.Time { return now }
				pic, err := c.Picture(t.Context(), app.Words{}, a.sym, a.p)
				if err != nil || string(pic.PNG) != "png" {
					t.Fatalf("Picture(%s, %s) = %q, %v", a.sym, a.p.Name, pic.PNG, err)
				}
				most = max(most, len(cacheKeys(t, c)))
			}
			if most > c.Keep {
				t.Fatalf("the cache held %d pictures at most; Keep is %d", most, c.Keep)
			}
			if draws != tt.draws {
				t.Fatalf("%d drawings, want %d", draws, tt.draws)
			}
			if got := cacheKeys(t, c); tt.keys != nil && strings.Join(got, " ") != strings.Join(tt.keys, " ") {
				t.Fatalf("cache holds %q; want %q", got, tt.keys)
			}
		})
	}
}
