package coin

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// factory is the module as both runtimes build it: drawing in process.
var factory = Factory(draw.New())

// recordedNow is just after the recorded klines' last hour began.
var recordedNow = time.Date(2024, 12, 9, 12, 0, 0, 0, time.UTC)

func chartBot(t *testing.T, mode map[string]string) (*apptest.Bot, *fakeHistory, *apptest.Clock) {
	f := &fakeHistory{mode: mode, calls: map[string]int{}}
	clk := apptest.NewClock(recordedNow)
	settings := apptest.FakeAPIs(t, f, map[string]string{
		trading.BinanceURL.Name: "/binance", settingCoinbase: "/coinbase", settingCoinGecko: "/coingecko",
	})
	return apptest.New(t, []app.Factory{factory}, core.WithClock(clk.Now), core.WithSettings(settings)), f, clk
}

// checkPhoto fails unless p is an 800 x 500 PNG under 150 KB.
func checkPhoto(t *testing.T, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the photo is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 500 || len(data) > 150<<10 {
		t.Fatalf("photo %d x %d px, %d bytes; want 800 x 500 under 150 KB", b.Dx(), b.Dy(), len(data))
	}
}

// A chart is a photo of the recorded prices, titled with the last price
// and the move, captioned with its source and time, with the periods as
// buttons; pressing one redraws the same message in place.
func TestAChartIsAPhotoWhosePeriodButtonsRedrawItInPlace(t *testing.T) {
	b, _, _ := chartBot(t, nil)
	b.MustSay(apptest.Group, apptest.User, "/coin_chart eth 1d")
	photos := b.Srv.Photos()
	if len(photos) != 1 {
		t.Fatalf("%d photos, replies %q; want one chart", len(photos), b.Replies())
	}
	checkPhoto(t, photos[0].PNG)
	// The last day's 24 bars: from the open 3,971.85 to the close 3,864.20.
	wantCaption := "ETH 1d: $3,864, -2.71% (-$107.65)\n24 OHLC bars from Binance to 09 Dec 2024 18:00 ICT"
	if photos[0].Caption != wantCaption {
		t.Fatalf("caption %q\nwant    %q", photos[0].Caption, wantCaption)
	}
	id, rows, ok := b.Srv.Keyboard(apptest.Group)
	if !ok || len(rows) != 1 || len(rows[0]) != 4 || rows[0][0].Text != "• 1d" || rows[0][2].CallbackData != "coinc:ETH:30d" {
		t.Fatalf("keyboard %+v; want 1d (marked), 7d, 30d, 1y", rows)
	}
	if err := b.Handle(telegramtest.Press(apptest.Group, apptest.Admin, id, rows[0][1].CallbackData)); err != nil {
		t.Fatal(err)
	}
	edits := b.Srv.MediaEdits()
	if len(edits) != 1 || edits[0].MessageID != id || !strings.HasPrefix(edits[0].Caption, "ETH 7d: $3,864, -2.89% (-$115.01)\n51 OHLC bars from Binance") {
		t.Fatalf("%d media edits; want message %d redrawn over 7d", len(edits), id)
	}
	checkPhoto(t, edits[0].PNG)
	if _, rows, _ := b.Srv.Keyboard(apptest.Group); rows[0][1].Text != "• 7d" {
		t.Fatalf("after the press the keyboard marks %q; want 7d", rows[0][1].Text)
	}
	if n := len(b.Srv.Photos()); n != 1 {
		t.Fatalf("%d photos sent; a press edits, it sends none", n)
	}
}

// Each source falls through to the next on a failure or too few prices,
// in the price's order; too few everywhere and no answer at all are said
// in words, never drawn.
func TestAChartFallsThroughTheSourcesInThePricesOrder(t *testing.T) {
	tests := []struct {
		name, say string
		mode      map[string]string
		want      string // the caption's second line, or the reply
	}{
		{"Binance first", "/coin_chart ETH 7d", nil, "51 OHLC bars from Binance to 09 Dec 2024 18:00 ICT"},
		{"Coinbase when Binance is down", "/coin_chart ETH 7d", map[string]string{"binance": "down"}, "51 OHLC bars from Coinbase to 09 Dec 2024 18:00 ICT"},
		{"CoinGecko's line when both are down", "/coin_chart ETH 7d", map[string]string{"binance": "down", "coinbase": "down"}, "51 prices from CoinGecko to 09 Dec 2024 18:00 ICT"},
		{"a recorded single candle is too few", "/coin_chart ETH 7d", map[string]string{"binance": "down", "coinbase": "recorded", "coingecko": "down"}, "Too few prices of ETH over 7d to draw a chart; try a longer period."},
		{"Coinbase at once when Binance answers Infinity", "/coin_chart ETH 7d", map[string]string{"binance": "bad:Infinity"}, "51 OHLC bars from Coinbase to 09 Dec 2024 18:00 ICT"},
		{"Coinbase at once when Binance answers NaN", "/coin_chart ETH 7d", map[string]string{"binance": "bad:NaN"}, "51 OHLC bars from Coinbase to 09 Dec 2024 18:00 ICT"},
		{"Coinbase at once when Binance answers zero", "/coin_chart ETH 7d", map[string]string{"binance": "bad:0"}, "51 OHLC bars from Coinbase to 09 Dec 2024 18:00 ICT"},
		{"Coinbase at once when Binance answers a negative price", "/coin_chart ETH 7d", map[string]string{"binance": "bad:-3864.2"}, "51 OHLC bars from Coinbase to 09 Dec 2024 18:00 ICT"},
		{"a bad answer with every other source down is said so", "/coin_chart ETH 7d", map[string]string{"binance": "bad:Infinity", "coinbase": "down", "coingecko": "down"}, "No chart of ETH right now: the price history the sources answered has prices that cannot be right (zero, negative or not a number)."},
		{"every source down", "/coin_chart ETH", map[string]string{"binance": "down", "coinbase": "down", "coingecko": "down"}, "No price history for ETH right now; every source failed. Try again later."},
		{"unknown everywhere", "/coin_chart NOPE", nil, "Unknown coin: NOPE."},
		{"a period no market has", "/coin_chart ETH 2w", nil, "A chart's period is 1d, 7d, 30d or 1y."},
		{"no symbol", "/coin_chart", nil, "Usage: /coin_chart <symbol> [1d|7d|30d|1y]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, _ := chartBot(t, tt.mode)
			b.MustSay(apptest.Group, apptest.User, tt.say)
			if n := f.calls["binance"]; n > 1 {
				t.Fatalf("Binance asked %d times; a source's answer is taken once", n)
			}
			if photos := b.Srv.Photos(); len(photos) == 1 {
				if _, line, _ := strings.Cut(photos[0].Caption, "\n"); line != tt.want {
					t.Fatalf("caption's source line %q; want %q", line, tt.want)
				}
				return
			}
			if got := b.Last(); got != tt.want {
				t.Fatalf("reply %q; want %q", got, tt.want)
			}
		})
	}
}

// The recorded CoinGecko answer (three prices over eight minutes of 23 Jan
// 2020) is read as prices, and three are too few to draw, even when they
// all fall in the period.
func TestARecordedShortMarketChartIsTooFew(t *testing.T) {
	b, f, clk := chartBot(t, map[string]string{"binance": "down", "coinbase": "down", "coingecko": "recorded"})
	clk.Add(time.UnixMilli(1579762372880).Add(time.Minute).Sub(recordedNow))
	b.MustSay(apptest.Group, apptest.User, "/coin_chart ETH 1d")
	if got := b.Last(); got != "Too few prices of ETH over 1d to draw a chart; try a longer period." || f.calls["coingecko"] != 2 {
		t.Fatalf("reply %q after %d CoinGecko calls; want the too-few words after its search and market chart", got, f.calls["coingecko"])
	}
}

// A chart is drawn once while fresh, whoever asks and however: the group
// pressing the same button costs the providers nothing more; past its
// freshness it is drawn again.
func TestAChartIsDrawnOncePerFreshness(t *testing.T) {
	b, f, clk := chartBot(t, nil)
	b.MustSay(apptest.Group, apptest.User, "/coin_chart ETH 7d")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	for range 3 {
		if err := b.Handle(telegramtest.Press(apptest.Group, apptest.Admin, id, rows[0][1].CallbackData)); err != nil {
			t.Fatal(err)
		}
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_chart ETH 7d")
	if n := f.calls["binance"]; n != 1 {
		t.Fatalf("%d history calls for one chart pressed three times and asked twice; want 1", n)
	}
	edits := b.Srv.MediaEdits()
	if len(edits) != 3 || !bytes.Equal(edits[2].PNG, b.Srv.Photos()[0].PNG) {
		t.Fatalf("%d edits; want 3, each the cached picture", len(edits))
	}
	clk.Add(trading.Week.Fresh)
	b.MustSay(apptest.Group, apptest.User, "/coin_chart ETH 7d")
	if n := f.calls["binance"]; n != 2 {
		t.Fatalf("%d history calls once the chart went stale; want 2", n)
	}
}

// A press whose data no longer means anything gets the stale toast and
// changes nothing.
func TestAStalePeriodPressGetsTheToast(t *testing.T) {
	b, f, _ := chartBot(t, nil)
	for _, data := range []string{"coinc:ETH:2w", "coinc:B$C:7d", "coinc:ETH", "coinc:", fmt.Sprintf("coinc:%s:7d", strings.Repeat("A", 11))} {
		if err := b.Handle(telegramtest.Press(apptest.Group, apptest.User, 7, data)); err != nil {
			t.Fatal(err)
		}
		answers := b.Srv.Calls("answerCallbackQuery")
		if got := answers[len(answers)-1].Params["text"]; got != app.StaleButtonToast {
			t.Fatalf("%q answered %q; want the stale toast", data, got)
		}
	}
	if len(b.Srv.MediaEdits()) != 0 || f.calls["binance"] != 0 {
		t.Fatal("a stale press edited or fetched")
	}
}

// The longest chart button fits Telegram's 64 bytes.
func TestTheLongestChartButtonFits(t *testing.T) {
	if n := len("coinc:" + strings.Repeat("W", 10) + ":30d"); n > app.MaxCallbackData {
		t.Fatalf("%d bytes", n)
	}
}

// A group that forbids photos still reads text: the chart it cannot get
// is said, not dropped in silence.
func TestAChartRefusedForPhotosIsSaidInText(t *testing.T) {
	b, _, _ := chartBot(t, nil)
	b.Srv.FailNext("sendPhoto", telegramtest.RecordedFailure(t, "answer_no_rights_photos.json"))
	b.MustSay(apptest.Group, apptest.User, "/coin_chart eth 1d")
	if got := b.Replies(); len(got) != 1 || !strings.Contains(got[0], "may not send photos") {
		t.Fatalf("replies %q; want one saying photos are not allowed here", got)
	}
}

// A Vietnamese reader's chart names its period in words, on its title
// and its buttons; the period is typed as in English.
func TestAChartsPeriodsReadInVietnamese(t *testing.T) {
	b, _, _ := chartBot(t, nil)
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_chart eth 1d")
	photos := b.Srv.Photos()
	if len(photos) != 1 || !strings.HasPrefix(photos[0].Caption, "ETH 1 ngày: 3.864\u00a0$") {
		t.Fatalf("%d photos, replies %q; want one chart titled in Vietnamese", len(photos), b.Replies())
	}
	_, rows, ok := b.Srv.Keyboard(apptest.PrivateChat)
	if !ok || len(rows) != 1 || rows[0][0].Text != "• 1 ngày" || rows[0][1].Text != "7 ngày" || rows[0][3].Text != "1 năm" || rows[0][1].CallbackData != "coinc:ETH:7d" {
		t.Fatalf("keyboard %+v; want 1 ngày (marked), 7 ngày, 30 ngày, 1 năm", rows)
	}
}
