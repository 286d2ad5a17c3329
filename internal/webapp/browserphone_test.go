package webapp_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// fakeTelegram stands in for telegram-web-app.js (which the test browser
// cannot reach): the client features the page uses, recording their use.
const fakeTelegram = `window.Telegram = { WebApp: { initData: "", themeParams: {}, ready() {}, expand() {}, onEvent() {},
	isVersionAtLeast() { return true; },
	BackButton: { shown: false, show() { this.shown = true; }, hide() { this.shown = false; }, onClick(f) { this.press = f; } },
	MainButton: { setParams(p) { this.params = p; }, onClick(f) { this.press = f; } },
	HapticFeedback: { taps: 0, selectionChanged() { this.taps++; }, impactOccurred() { this.taps++; } } } };`

// openPhone opens the trader's page, with a coin portfolio and a gold
// one worth about 510 million dong, in a phone's browser inside a fake
// Telegram client.
func openPhone(t *testing.T, theme string) (*bot, context.Context) {
	t.Helper()
	bt := startBot(t)
	for _, cmd := range []string{"/coin_topup 10000", "/coin_buy BTC 1000", "/coin_buy ETH 500", "/gold_topup 510000000"} {
		bt.say(t, cmd)
	}
	bt.seedValues(t, 24)
	var pts []trading.DayPoint
	for i := range 20 {
		at := time.Date(2026, 11, 1, 17, 0, 0, 0, time.UTC).AddDate(0, 0, i)
		pts = append(pts, trading.DayPoint{Day: at.Add(time.Hour).Format(time.DateOnly), At: at,
			Cash: decimal.NewFromInt(510_000_000 + int64(i%7)*1_250_000), Holdings: decimal.Zero, Deposited: decimal.NewFromInt(510_000_000)})
	}
	if err := bt.b.Store.For("gold").PutJSON(t.Context(), "value:"+fmt.Sprint(trader), pts); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeTelegram}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(signFor(bt.tg.Token, trader, traderName, time.Now(), ""), theme)),
		chromedp.WaitVisible(chromedp.ID("total"))); err != nil {
		t.Fatalf("the page did not show a portfolio: %v", err)
	}
	waitFor(t, ctx, `miniApp.state.series && miniApp.state.series.data().length > 0`)
	return bt, ctx
}

func evalNum(t *testing.T, ctx context.Context, expr string) float64 {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestAVerticalSwipeOnAChartScrollsThePage: a thumb that starts on a
// chart and moves up scrolls the page, as anywhere else on it.
func TestAVerticalSwipeOnAChartScrollsThePage(t *testing.T) {
	_, ctx := openPhone(t, lightTheme)
	box, err := chromedp.Run(ctx, chromedp.Dimensions(chromedp.ID("chart")))
	if err != nil {
		t.Fatal(err)
	}
	x, y := box.Content[0]+(box.Content[2]-box.Content[0])/2, box.Content[1]+(box.Content[5]-box.Content[1])/2
	before := evalNum(t, ctx, `window.scrollY`)
	swipe(t, ctx, x, y, -300)
	if after := evalNum(t, ctx, `window.scrollY`); after < before+50 {
		t.Errorf("a 300 px swipe up on the chart scrolled the page from %v to %v", before, after)
	}
}

// TestChartAxesReadAsTheMarketsMoneyInVietnamTime: a dong chart's axis
// reads 510M, not 510000000.00, and stays narrow; a dollar chart's reads
// dollars; price bars and the trade list are on Vietnam's clock.
func TestChartAxesReadAsTheMarketsMoneyInVietnamTime(t *testing.T) {
	_, ctx := openPhone(t, lightTheme)
	eval(t, ctx, `document.getElementById("tab-gold").click()`)
	waitFor(t, ctx, `miniApp.state.market === "gold" && miniApp.state.series.data()[0].value >= 510000000`)
	for expr, want := range map[string]string{
		`miniApp.state.chart.options().localization.tickmarksPriceFormatter([510000000, 512500000]).join(" ")`: "510M 512.5M",
		`miniApp.state.chart.options().localization.priceFormatter(511250000)`:                                 "511.25M",
	} {
		if got := eval(t, ctx, expr); got != want {
			t.Errorf("the gold chart writes %q, want %q", got, want)
		}
	}
	// The dong axis takes at most a fifth of the chart's width.
	axis := evalNum(t, ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(miniApp.state.chart.priceScale("right").width()))))`)
	if width := evalNum(t, ctx, `document.getElementById("chart").clientWidth`); axis > width/5 {
		t.Errorf("the dong axis is %v px of the chart's %v", axis, width)
	}

	eval(t, ctx, `document.getElementById("tab-coin").click()`)
	waitFor(t, ctx, `miniApp.state.market === "coin" && miniApp.state.series.data()[0].value < 1e6`)
	if got := eval(t, ctx, `miniApp.state.chart.options().localization.tickmarksPriceFormatter([9800, 10250.5]).join(" ")`); got != "$9,800 $10,251" {
		t.Errorf("the coin chart's axis writes %q", got)
	}

	// The price chart's bars are Vietnam's clock: seven hours on from UTC.
	eval(t, ctx, tapBTC)
	waitFor(t, ctx, drawn)
	if shift := evalNum(t, ctx, `miniApp.state.priceSeries.data()[0].time - miniApp.state.priceAnswer.bars[0].t`); shift != 7*3600 {
		t.Errorf("the price chart's times are moved %v s from UTC, want Vietnam's 25200", shift)
	}
	// The trade list too.
	at, err := time.Parse(time.RFC3339Nano, eval(t, ctx, `miniApp.state.me.modules.coin.trades[0].at`))
	if err != nil {
		t.Fatal(err)
	}
	// As the bot's replies write a time (internal/locale), in Vietnam's.
	want := locale.DateTime(locale.English, at.In(time.FixedZone("ICT", 7*3600)))
	if got := eval(t, ctx, `document.querySelector("#trades li small").textContent`); got[:len(want)] != want {
		t.Errorf("the trade list says %q, want Vietnam's %q", got, want)
	}
}

// TestATappedHoldingsChartComesIntoViewWithAWayBack: the chart scrolls
// into view, Telegram's Back button shows, and pressing it returns to
// the holding; taps are felt.
func TestATappedHoldingsChartComesIntoViewWithAWayBack(t *testing.T) {
	_, ctx := openPhone(t, lightTheme)
	inView := func(id string) string {
		return `(r => r.top >= 0 && r.top < innerHeight)(document.getElementById("` + id + `").getBoundingClientRect())`
	}
	eval(t, ctx, tapBTC)
	waitFor(t, ctx, drawn+` && `+inView("price")+` && Telegram.WebApp.BackButton.shown`)
	if eval(t, ctx, `Telegram.WebApp.MainButton.params.text`) != "Refresh" || evalNum(t, ctx, `Telegram.WebApp.HapticFeedback.taps`) < 1 {
		t.Error("no MainButton, or the tap was not felt")
	}
	eval(t, ctx, `Telegram.WebApp.BackButton.press()`)
	waitFor(t, ctx, `document.getElementById("price").hidden && !Telegram.WebApp.BackButton.shown && (r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector('#holdings tr[data-symbol="BTC"]').getBoundingClientRect())`)
}

// contrastOf is the WCAG contrast of each .up and .down figure shown
// against the colour behind it, the lowest.
const contrastOf = `(() => {
	const rgb = s => s.match(/\d+(\.\d+)?/g).map(Number);
	const behind = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
	let low = 99, n = 0;
	for (const e of document.querySelectorAll(".up, .down")) {
		if (!e.offsetParent || !e.textContent.trim()) continue;
		n++;
		low = Math.min(low, miniApp.contrast(rgb(getComputedStyle(e).color).slice(0, 3), behind(e)));
	}
	return n ? low : 0; })()`

// smallestTarget is the smallest side of the buttons and holding rows shown.
const smallestTarget = `(() => { let low = 999;
	for (const e of document.querySelectorAll("button, #holdings tbody tr")) {
		if (!e.offsetParent) continue;
		const r = e.getBoundingClientRect();
		low = Math.min(low, e.tagName === "TR" ? r.height : Math.min(r.width, r.height));
	} return low; })()`

// TestThePageMeetsWCAGAAOnAPhone: gains and losses read at 4.5:1 in both
// themes, every tap target is at least 44 px, the markets are tabs, and a
// keyboard reaches and opens a holding.
func TestThePageMeetsWCAGAAOnAPhone(t *testing.T) {
	_, ctx := openPhone(t, lightTheme)
	eval(t, ctx, tapBTC)
	waitFor(t, ctx, drawn)
	for name, theme := range map[string]string{"light": lightTheme, "dark": darkTheme} {
		eval(t, ctx, `miniApp.applyTheme(`+theme+`)`)
		if c := evalNum(t, ctx, contrastOf); c < 4.5 {
			t.Errorf("%s theme: gains and losses at %.2f:1, want 4.5:1", name, c)
		}
	}
	if s := evalNum(t, ctx, smallestTarget); s < 44 {
		t.Errorf("a tap target is %v px, want 44", s)
	}
	if got := eval(t, ctx, `[...document.querySelectorAll('[role=tablist] > [role=tab]')].map(b => b.textContent + ":" + b.getAttribute("aria-selected")).join(" ")`); got != "Coin:true Gold:false Stock:false" {
		t.Errorf("the market tabs read %q", got)
	}
	eval(t, ctx, `document.getElementById("back").click()`)
	waitFor(t, ctx, `document.getElementById("price").hidden`)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#holdings tr[data-symbol="ETH"] button`)), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, drawn+` && document.getElementById("pricetitle").textContent.startsWith("ETH")`)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("tab-coin")), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `miniApp.state.market === "gold" && document.activeElement.id === "tab-gold"`)
}

// TestThePageAsksForItsDataBesideTheChartLibrary: on a slow link the
// portfolio is asked before the chart library has arrived, not after.
func TestThePageAsksForItsDataBesideTheChartLibrary(t *testing.T) {
	bt := startBot(t)
	bt.say(t, "/coin_topup 10000")
	ctx := browser(t)
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: slow4GLatency, DownloadThroughput: slow4GDown, UploadThroughput: slow4GUp}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(signFor(bt.tg.Token, trader, traderName, time.Now(), ""), lightTheme)),
		chromedp.WaitVisible(chromedp.ID("total"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!!window.LightweightCharts`)
	times := eval(t, ctx, `(() => { const e = performance.getEntriesByType("resource");
		const me = e.find(r => r.name.endsWith("/api/me")), lc = e.find(r => r.name.includes("/lightweight-charts."));
		return me.startTime + " " + lc.responseEnd; })()`)
	var asked, arrived float64
	if _, err := fmt.Sscan(times, &asked, &arrived); err != nil {
		t.Fatal(err)
	}
	t.Logf("api/me asked at %s ms, the chart library in at %s ms", strconv.FormatFloat(asked, 'f', 0, 64), strconv.FormatFloat(arrived, 'f', 0, 64))
	if asked >= arrived {
		t.Errorf("the page asked for its data at %v ms, after the chart library arrived at %v ms", asked, arrived)
	}
}

// swipe drags one finger from (x, y) by dy pixels, as a thumb does.
func swipe(t *testing.T, ctx context.Context, x, y, dy float64) {
	t.Helper()
	touch := func(typ input.DispatchTouchEventType, y float64) {
		pts := []*input.TouchPoint{{X: x, Y: y}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
			t.Fatal(err)
		}
	}
	touch(input.DispatchTouchEventTypeTouchStart, y)
	for i := 1; i <= 10; i++ {
		touch(input.DispatchTouchEventTypeTouchMove, y+dy*float64(i)/10)
	}
	touch(input.DispatchTouchEventTypeTouchEnd, y+dy)
}
