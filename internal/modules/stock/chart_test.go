package stock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// factory is the module as both runtimes build it: drawing in process.
var factory = Factory(draw.New())

// dailyBrokers serves n made-up daily bars of FPT up to today from KBS
// (objects, newest first) and Vietcap (parallel arrays, times as
// strings); "down" fails a provider and "recorded" makes KBS answer its
// recorded one-bar answer.
type dailyBrokers struct {
	n    int
	now  time.Time
	mode map[string]string
}

func (f dailyBrokers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	provider, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if f.mode[provider] == "down" {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if f.mode[provider] == "recorded" {
		b, err := os.ReadFile(filepath.Join("testdata", "kbs_data_day_vnd.json"))
		if err != nil {
			panic(err)
		}
		_, _ = w.Write(b)
		return
	}
	if !strings.Contains(r.URL.Path, "FPT") && provider == "kbs" {
		_, _ = w.Write([]byte(`{"data_day":[]}`))
		return
	}
	var kbsBars []string
	var t, o, h, l, c []string
	for i := range f.n {
		day := f.now.AddDate(0, 0, i-f.n+1).In(trading.ICT)
		day = time.Date(day.Year(), day.Month(), day.Day(), 7, 0, 0, 0, trading.ICT)
		cl := 70000 + 100*(i%9)
		kbsBars = append([]string{fmt.Sprintf(`{"t":%q,"o":%d,"h":%d,"l":%d,"c":%d,"v":1000}`, day.Format("2006-01-02 15:04"), cl-200, cl+300, cl-400, cl)}, kbsBars...)
		t, o = append(t, fmt.Sprintf("%q", fmt.Sprint(day.Unix()))), append(o, fmt.Sprint(cl-200))
		h, l, c = append(h, fmt.Sprint(cl+300)), append(l, fmt.Sprint(cl-400)), append(c, fmt.Sprint(cl))
	}
	switch provider {
	case "kbs":
		fmt.Fprintf(w, `{"symbol":"FPT","data_day":[%s]}`, strings.Join(kbsBars, ","))
	case "vci":
		var req struct{ Symbols []string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		if len(req.Symbols) != 1 || req.Symbols[0] != "FPT" {
			_, _ = w.Write([]byte(`[]`))
			return
		}
		fmt.Fprintf(w, `[{"symbol":"FPT","t":[%s],"o":[%s],"h":[%s],"l":[%s],"c":[%s]}]`,
			strings.Join(t, ","), strings.Join(o, ","), strings.Join(h, ","), strings.Join(l, ","), strings.Join(c, ","))
	default:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func dailyBot(t *testing.T, f dailyBrokers) *apptest.Bot {
	f.now = apptest.T0
	b, _ := apptest.NewModule(t, factory, apptest.FakeAPIs(t, f, map[string]string{
		settingKBS: "/kbs", settingVCI: "/vci", settingSSI: "/ssi",
	}))
	return b
}

// A stock's chart is daily bars from KBS, then Vietcap; a day's chart
// would be one bar, so stocks start at a week.
func TestAStocksChartIsDailyBarsInThePricesOrder(t *testing.T) {
	tests := []struct {
		name, say string
		f         dailyBrokers
		want      string // the caption, or the reply
	}{
		{"30d from KBS by default", "/stock_chart fpt", dailyBrokers{n: 40}, "FPT 30d: 70,300 VND, +0.57% (+400 VND)\n30 OHLC bars from KBS to 29 Nov 2026 07:00 ICT"},
		{"Vietcap when KBS is down", "/stock_chart FPT 7d", dailyBrokers{n: 40, mode: map[string]string{"kbs": "down"}}, "FPT 7d: 70,300 VND, -0.14% (-100 VND)\n7 OHLC bars from VCI to 29 Nov 2026 07:00 ICT"},
		{"a recorded single bar is too few", "/stock_chart FPT 7d", dailyBrokers{n: 40, mode: map[string]string{"kbs": "recorded", "vci": "down"}}, "Too few prices of FPT over 7d to draw a chart; try a longer period."},
		{"no day chart", "/stock_chart FPT 1d", dailyBrokers{n: 40}, "A chart's period is 7d, 30d or 1y."},
		{"unknown everywhere", "/stock_chart ZZZ", dailyBrokers{n: 40}, "Unknown ticker: ZZZ."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := dailyBot(t, tt.f)
			b.MustSay(apptest.Group, apptest.User, tt.say)
			photos := b.Srv.Photos()
			if len(photos) == 0 {
				if got := b.Last(); got != tt.want {
					t.Fatalf("reply %q; want %q", got, tt.want)
				}
				return
			}
			if photos[0].Caption != tt.want {
				t.Fatalf("caption %q\nwant    %q", photos[0].Caption, tt.want)
			}
			if img, err := png.Decode(bytes.NewReader(photos[0].PNG)); err != nil || img.Bounds().Dx() != 800 {
				t.Fatalf("photo: %v; want an 800 px PNG", err)
			}
		})
	}
}

// A period button redraws a stock's chart in place.
func TestAStocksPeriodButtonRedrawsInPlace(t *testing.T) {
	b := dailyBot(t, dailyBrokers{n: 400})
	b.MustSay(apptest.Group, apptest.User, "/stock_chart FPT")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	if len(rows[0]) != 3 || rows[0][2].CallbackData != "stockc:FPT:1y" {
		t.Fatalf("keyboard %+v; want 7d, 30d, 1y", rows)
	}
	if err := b.Handle(telegramtest.Press(apptest.Group, apptest.User, id, rows[0][2].CallbackData)); err != nil {
		t.Fatal(err)
	}
	if e := b.Srv.MediaEdits(); len(e) != 1 || e[0].MessageID != id || !strings.Contains(e[0].Caption, "365 OHLC bars from KBS") {
		t.Fatalf("%d edits; want message %d redrawn over a year", len(e), id)
	}
}
