package gold

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
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

// spotKlines serves n made-up hourly PAXGUSDT klines ending at now (no
// recorded PAXG history was found; the shape is Binance's documented one)
// and the recorded ExchangeRate-API answer; rates "down" fails the rates.
type spotKlines struct {
	n         int
	now       time.Time
	ratesDown bool
}

func (f spotKlines) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/binance/api/v3/klines" && r.URL.Query().Get("symbol") == "PAXGUSDT":
		var rows []string
		for i := range f.n {
			t := f.now.Add(time.Duration(i-f.n) * time.Hour).UnixMilli()
			c := 2600 + float64(i%7)*3
			rows = append(rows, fmt.Sprintf(`[%d,"%.2f","%.2f","%.2f","%.2f","1.5",%d]`, t, c-2, c+4, c-5, c, t+3599999))
		}
		_, _ = w.Write([]byte("[" + strings.Join(rows, ",") + "]"))
	case r.URL.Path == "/erapi/v6/latest/USD" && !f.ratesDown:
		_, _ = w.Write(recorded("erapi_latest_usd.json"))
	default:
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func spotBot(t *testing.T, f spotKlines) *apptest.Bot {
	f.now = apptest.T0
	b, _ := apptest.NewModule(t, factory, apptest.FakeAPIs(t, f, map[string]string{
		settingVNAppMob: "/vnappmob", trading.BinanceURL.Name: "/binance", settingERAPI: "/erapi",
	}))
	return b
}

// Gold's chart is world spot in VND per luong, and says so: the
// caption names the conversion, never SJC's price.
func TestGoldsChartIsWorldSpotAndSaysSo(t *testing.T) {
	tests := []struct {
		name, say string
		f         spotKlines
		want      string // the caption's first line, or the reply
	}{
		{"a day of world spot", "/gold_chart 1d", spotKlines{n: 24}, "World gold (spot, VND/luong) 1d: "},
		{"7d without an argument", "/gold_chart", spotKlines{n: 84}, "World gold (spot, VND/luong) 7d: "},
		{"too few klines", "/gold_chart", spotKlines{n: 3}, "Too few prices of World gold (spot, VND/luong) over 7d to draw a chart; try a longer period."},
		{"no rate, no chart", "/gold_chart", spotKlines{n: 84, ratesDown: true}, "No price history for World gold (spot, VND/luong) right now; every source failed. Try again later."},
		{"a period gold has not", "/gold_chart 2w", spotKlines{n: 84}, "A chart's period is 1d, 7d, 30d or 1y."},
		{"a symbol is not an argument", "/gold_chart SJC 7d", spotKlines{n: 84}, "Usage: /gold_chart [1d|7d|30d|1y]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := spotBot(t, tt.f)
			b.MustSay(apptest.Group, apptest.User, tt.say)
			photos := b.Srv.Photos()
			if len(photos) == 0 {
				if got := b.Last(); got != tt.want {
					t.Fatalf("reply %q; want %q", got, tt.want)
				}
				return
			}
			lines := strings.Split(photos[0].Caption, "\n")
			if !strings.HasPrefix(lines[0], tt.want) || !strings.HasSuffix(lines[0], " VND)") || lines[len(lines)-1] != spotNoteEnglish {
				t.Fatalf("caption %q; want %q... in VND and the world-spot note", photos[0].Caption, tt.want)
			}
			img, err := png.Decode(bytes.NewReader(photos[0].PNG))
			if err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 500 {
				t.Fatalf("photo: %v; want an 800 x 500 PNG", err)
			}
		})
	}
}

// A period button redraws gold's chart in place.
func TestGoldsPeriodButtonRedrawsInPlace(t *testing.T) {
	b := spotBot(t, spotKlines{n: 90})
	b.MustSay(apptest.Group, apptest.User, "/gold_chart")
	id, rows, ok := b.Srv.Keyboard(apptest.Group)
	if !ok || rows[0][2].CallbackData != "goldc:XAU:30d" {
		t.Fatalf("keyboard %+v", rows)
	}
	if err := b.Handle(telegramtest.Press(apptest.Group, apptest.User, id, rows[0][2].CallbackData)); err != nil {
		t.Fatal(err)
	}
	if e := b.Srv.MediaEdits(); len(e) != 1 || e[0].MessageID != id || !strings.HasPrefix(e[0].Caption, "World gold (spot, VND/luong) 30d: ") {
		t.Fatalf("%d edits; want message %d redrawn over 30d", len(e), id)
	}
}

const spotNoteEnglish = "World spot, not SJC's price (SJC has no history at our source): PAXG on Binance x today's USD/VND from ExchangeRate-API, per luong (37.5 g)."
