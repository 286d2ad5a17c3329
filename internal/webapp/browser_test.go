package webapp_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// statsFigures reads /coin_stats' reply: "Cash: $X" and
// "Total: $T (invested $I, P/L $P)", and each holding's value.
func statsFigures(t *testing.T, stats string) map[string]string {
	t.Helper()
	cash := regexp.MustCompile(`(?m)^Cash: (\S+)$`).FindStringSubmatch(stats)
	total := regexp.MustCompile(`(?m)^Total: (\S+) \(invested (\S+), P/L (\S+)\)$`).FindStringSubmatch(stats)
	if cash == nil || total == nil {
		t.Fatalf("/coin_stats said %q", stats)
	}
	return map[string]string{"cash": cash[1], "total": total[1], "invested": total[2], "pl": total[3]}
}

func TestThePageShowsWhatCoinStatsSaysWithAChartABoardAndTheTheme(t *testing.T) {
	bt := startBot(t)
	// The group's board: three members who topped up there, the trader
	// second by value.
	bt.sayIn(t, group, 5001, "Minh", "/coin_topup 12400")
	bt.sayIn(t, group, trader, traderName, "/coin_topup 10000")
	bt.sayIn(t, group, 5002, "An", "/coin_topup 9100")
	for _, cmd := range []string{"/coin_buy BTC 1000", "/coin_buy ETH 500", "/coin_sell ETH 0.05"} {
		bt.say(t, cmd)
	}
	bt.seedValues(t, 24)
	want := statsFigures(t, bt.say(t, "/coin_stats"))
	initData := signFor(bt.tg.Token, trader, traderName, time.Now().Add(-time.Minute), "-1001234")

	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(initData, lightTheme)), chromedp.WaitVisible(chromedp.ID("total"))); err != nil {
		t.Fatalf("the page did not show a portfolio: %v", err)
	}
	got := map[string]string{}
	for _, id := range []string{"cash", "total", "invested", "pl"} {
		text, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			t.Fatal(err)
		}
		got[id] = text
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("the page's %s is %q; /coin_stats says %q", k, got[k], w)
		}
	}

	// The chart is drawn: its canvases have painted pixels.
	painted := `(() => { let n = 0; for (const c of document.querySelectorAll('#chart canvas')) {
		if (!c.width || !c.height) continue;
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		for (let i = 3; i < d.length; i += 4 * 13) if (d[i]) n++; } return n > 500; })()`
	if err := poll(ctx, painted); err != nil {
		t.Fatalf("the value chart was not drawn: %v", err)
	}

	// It is interactive: the crosshair follows the pointer, the wheel zooms.
	box, err := chromedp.Run(ctx, chromedp.Dimensions(chromedp.ID("chart")))
	if err != nil {
		t.Fatal(err)
	}
	x, y := box.Content[0]+(box.Content[2]-box.Content[0])/2, box.Content[1]+(box.Content[5]-box.Content[1])/2
	before, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(r => r.to - r.from)(miniApp.state.chart.timeScale().getVisibleLogicalRange())`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `miniApp.state.crosshair != null`); err != nil {
		t.Fatalf("the crosshair did not follow the pointer: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, wheel(-400))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `(r => r.to - r.from < `+strconv.FormatFloat(before, 'f', -1, 64)+`)(miniApp.state.chart.timeScale().getVisibleLogicalRange())`); err != nil {
		t.Fatalf("the wheel did not zoom the chart: %v", err)
	}

	// A holding's price: tapping BTC draws its candles, which follow the
	// period buttons.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#holdings tr[data-symbol="BTC"]`)), chromedp.WaitVisible(chromedp.ID("pricechart"))); err != nil {
		t.Fatalf("no price chart: %v", err)
	}
	pricePainted := `(() => { let n = 0; for (const c of document.querySelectorAll('#pricechart canvas')) {
		if (!c.width || !c.height) continue;
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		for (let i = 3; i < d.length; i += 4 * 13) if (d[i]) n++; } return n > 500 && miniApp.state.priceSeries.data().length >= 5; })()`
	if err := poll(ctx, pricePainted); err != nil {
		t.Fatalf("the price chart was not drawn: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#periods button:nth-child(2)`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.getElementById("pricetitle").textContent.endsWith(" 7d")`); err != nil {
		t.Fatalf("the period button did not redraw: %v", err)
	}

	// The group's board, in its order, above the user's own figures, the
	// user's row marked, each with the profit the board counts.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`.board[data-market="coin"]`))); err != nil {
		t.Fatalf("no board: %v", err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.board[data-market="coin"] li')].map(e => e.firstChild.textContent + "|" + e.className + "|" + e.querySelector("span:last-child small").textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if wantRows := []string{"1. Minh||$0.00", "2. Linh (you)|you|$0.00", "3. An||$0.00"}; !slices.Equal(rows, wantRows) {
		t.Errorf("the board reads %q, want %q", rows, wantRows)
	}
	if first, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(document.getElementById("boards").compareDocumentPosition(document.getElementById("summary")) & Node.DOCUMENT_POSITION_FOLLOWING)`)); err != nil || !first {
		t.Errorf("opened from a group, the board does not come first (%v)", err)
	}
	shot(t, ctx, "miniapp-light.png")

	// Telegram switches to its dark theme: the page and the chart follow.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`miniApp.applyTheme(`+darkTheme+`)`)); err != nil {
		t.Fatal(err)
	}
	theme, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor,
		miniApp.state.chart.options().layout.background.color]`))
	if err != nil {
		t.Fatal(err)
	}
	if wantTheme := []string{"dark", "rgb(33, 33, 33)", "#181818"}; !slices.Equal(theme, wantTheme) {
		t.Errorf("after the dark theme: %q, want %q", theme, wantTheme)
	}
	shot(t, ctx, "miniapp-dark.png")

	if logs := bt.logs.String(); strings.Contains(logs, bt.tg.Token) || strings.Contains(logs, initData) {
		t.Error("the bot's log quotes the token or the initData")
	}
}

// TestOnlyTelegramsSignatureForThisUserOpensThePage: initData that this
// bot's Telegram did not sign, or signed too long ago, shows the 401 page
// and no figure.
func TestOnlyTelegramsSignatureForThisUserOpensThePage(t *testing.T) {
	bt := startBot(t)
	bt.say(t, "/coin_topup 10000")
	good := signFor(bt.tg.Token, trader, traderName, time.Now(), "")
	recorded := readSample(t)
	for _, tc := range []struct{ name, initData string }{
		{"forged: signed with another bot's token", signFor("999:forged-token", trader, traderName, time.Now(), "")},
		{"altered: another user's id under the trader's signature", strings.Replace(good, "%3A4242", "%3A4243", 1)},
		{"stale: signed 25 hours ago", signFor(bt.tg.Token, trader, traderName, time.Now().Add(-25*time.Hour), "")},
		{"foreign: a real initData Telegram signed for another bot", recorded},
		{"none: opened outside Telegram", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := browser(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(tc.initData, lightTheme)), chromedp.WaitVisible(chromedp.ID("denied"))); err != nil {
				t.Fatalf("the 401 page did not show: %v", err)
			}
			body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(body, "10,000") || strings.Contains(body, "Cash") && !strings.Contains(body, "401") {
				t.Errorf("the refused page shows figures: %q", body)
			}
		})
	}
}
