package webapp_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/webapp"
)

// farBot is the core with every module over a memory store each of whose
// calls waits latency (a cloud database that far away), the Mini App in
// front of it with no rate limit, and the trader's coin portfolio seeded
// through the bot's commands.
func farBot(b *testing.B, latency time.Duration) (srv *httptest.Server, store *storagetest.Counting, token string) {
	b.Helper()
	tg := telegramtest.New(b)
	prices := httptest.NewServer(binance(map[string]string{"BTCUSDT": "97012.34000000", "ETHUSDT": "3500.50000000"}))
	b.Cleanup(prices.Close)
	client, err := telegram.New(tg.Token, telegram.WithAPIURL(tg.URL))
	if err != nil {
		b.Fatal(err)
	}
	store = storagetest.NewCounting(memory.New(), latency)
	a, err := core.New(store, client, core.WithModules(builtin.Catalogue()),
		core.WithSettings(map[string]string{"BINANCE_API_URL": prices.URL, "COINBASE_API_URL": prices.URL, "COINGECKO_API_URL": prices.URL}))
	if err != nil {
		b.Fatal(err)
	}
	for i, cmd := range []string{"/coin_topup 10000", "/coin_buy BTC 1000", "/coin_buy ETH 500"} {
		u := telegramtest.Text(trader, trader, cmd)
		u.ID = int64(i + 1)
		if err := a.HandleUpdate(b.Context(), u); err != nil {
			b.Fatal(err)
		}
	}
	h := webapp.New(webapp.Config{Token: tg.Token, Routes: a.Registry().WebRoutes(), Log: slog.New(slog.DiscardHandler), Rate: rate.Inf, Lang: a.UserLang})
	srv = httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv, store, tg.Token
}

// BenchmarkMeAPIFiveMilli is GET /app/api/me with every store call 5 ms
// away: the markets' parts are asked at once, so a request costs about
// the longest market's round trips, not their sum.
func BenchmarkMeAPIFiveMilli(b *testing.B) {
	srv, store, token := farBot(b, 5*time.Millisecond)
	auth := "tma " + signFor(token, trader, traderName, time.Now(), "")
	get := func() {
		req, _ := http.NewRequestWithContext(b.Context(), http.MethodGet, srv.URL+"/app/api/me", nil)
		req.Header.Set("Authorization", auth)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("%v %v", res, err)
		}
		res.Body.Close()
	}
	get() // the prices cached, as a user's second look finds them
	store.Reset()
	b.ResetTimer()
	for b.Loop() {
		get()
	}
	b.ReportMetric(float64(store.Trips())/float64(b.N), "trips/op")
}

// BenchmarkFirstPaintFiveMilli opens the page in headless Chromium, a
// fresh tab each time, against the 5 ms store, and reports when the
// frame that paints the portfolio's figures ran (performance.mark
// "portfolio-painted", from the navigation's start), median and worst.
func BenchmarkFirstPaintFiveMilli(b *testing.B) {
	srv, _, token := farBot(b, 5*time.Millisecond)
	link := (&bot{srv: srv}).link(signFor(token, trader, traderName, time.Now(), ""), lightTheme)
	ctx := browser(b)
	var paints []float64
	for b.Loop() {
		tab, cancel := chromedp.NewContext(ctx)
		if err := chromedp.Do(tab, chromedp.Navigate(link)); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(tab, chromedp.Poll[float64](`(e => e ? e.startTime : 0)(performance.getEntriesByName("portfolio-painted")[0])`,
			chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil {
			b.Fatal(err)
		}
		paints = append(paints, ms)
		cancel()
	}
	slices.Sort(paints)
	b.ReportMetric(paints[len(paints)/2], "ms-paint-median")
	b.ReportMetric(paints[len(paints)-1], "ms-paint-max")
	b.ReportMetric(0, "ns/op")
}

// Slow 4G as Lighthouse's mobile profile sets it: 150 ms round trips,
// 1.6 Mbit/s down, 750 kbit/s up, and a CPU 4 times slower.
const (
	slow4GLatency  = 150 // ms
	slow4GDown     = 1.6e6 / 8
	slow4GUp       = 750e3 / 8
	slow4GCPUSlows = 4
)

// BenchmarkFirstFiguresSlow4G opens the page on a first visit (nothing
// cached) over slow 4G with a 4x slower CPU, a fresh tab each time, and
// reports when the frame that paints the portfolio's figures ran
// (performance.mark "portfolio-painted"), median and worst.
func BenchmarkFirstFiguresSlow4G(b *testing.B) {
	srv, _, token := farBot(b, 5*time.Millisecond)
	link := (&bot{srv: srv}).link(signFor(token, trader, traderName, time.Now(), ""), lightTheme)
	ctx := browser(b)
	var paints []float64
	var waterfall string
	for b.Loop() {
		tab, cancel := chromedp.NewContext(ctx)
		if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Call(tab, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Call(tab, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: slow4GLatency, DownloadThroughput: slow4GDown, UploadThroughput: slow4GUp}}}); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Call(tab, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: slow4GCPUSlows}); err != nil {
			b.Fatal(err)
		}
		if err := chromedp.Do(tab, chromedp.Navigate(link)); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(tab, chromedp.Poll[float64](`(e => e ? e.startTime : 0)(performance.getEntriesByName("portfolio-painted")[0])`,
			chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			b.Fatal(err)
		}
		paints = append(paints, ms)
		waterfall, _ = chromedp.Run(tab, chromedp.Evaluate[string](`performance.getEntries().map(e => e.name.replace(/^.*\//, "").slice(0, 40) + " " + e.entryType + " " + Math.round(e.startTime) + "-" + Math.round(e.responseEnd || e.startTime + e.duration)).join("\n")`))
		cancel()
	}
	b.Logf("the last load's resource timings (ms from navigation):\n%s", waterfall)
	slices.Sort(paints)
	b.ReportMetric(paints[len(paints)/2], "ms-paint-median")
	b.ReportMetric(paints[len(paints)-1], "ms-paint-max")
	b.ReportMetric(0, "ns/op")
}
