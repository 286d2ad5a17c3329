package webapp_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chartNet stands between the page and the bot's chart route (or the
// route path ends with): what it is set to do happens to every such
// request until it is set again.
type chartNet struct {
	path string
	mu   sync.Mutex
	fn   func(w http.ResponseWriter, r *http.Request, next http.Handler)
	done chan struct{} // closed when the test ends: nothing hangs past it
}

func newChartNet() *chartNet {
	n := &chartNet{path: "/chart", done: make(chan struct{})}
	return n
}

func (n *chartNet) set(fn func(w http.ResponseWriter, r *http.Request, next http.Handler)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.fn = fn
}

func (n *chartNet) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		fn := n.fn
		n.mu.Unlock()
		if fn == nil || !strings.HasSuffix(r.URL.Path, n.path) {
			h.ServeHTTP(w, r)
			return
		}
		fn(w, r, h)
	})
}

func answer(status int) func(http.ResponseWriter, *http.Request, http.Handler) {
	return func(w http.ResponseWriter, _ *http.Request, _ http.Handler) { w.WriteHeader(status) }
}

// drop closes the connection without an answer: the phone lost its network.
func drop(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = c.Close()
	}
}

// openPortfolio starts the bot behind net and opens the trader's page.
func openPortfolio(t *testing.T, net *chartNet) context.Context {
	t.Helper()
	bt := startBot(t, net.wrap)
	t.Cleanup(func() { close(net.done) })
	bt.say(t, "/coin_topup 10000")
	bt.say(t, "/coin_buy BTC 1000")
	bt.say(t, "/coin_buy ETH 500")
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(signFor(bt.tg.Token, trader, traderName, time.Now(), ""), lightTheme)),
		chromedp.WaitVisible(chromedp.ID("total"))); err != nil {
		t.Fatalf("the page did not show a portfolio: %v", err)
	}
	return ctx
}

// eval runs expr in the page; a string answer is returned.
func eval(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	s, _ := v.(string)
	return s
}

// waitFor polls until the page's expr is true.
func waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if err := poll(ctx, expr); err != nil {
		t.Fatalf("waiting for %s: %v (the price panel reads %q)", expr, err, eval(t, ctx, `document.getElementById("price").innerText`))
	}
}

const (
	tapBTC    = `document.querySelector('#holdings tr[data-symbol="BTC"] button').click()`
	tapETH    = `document.querySelector('#holdings tr[data-symbol="ETH"] button').click()`
	drawn     = `!document.getElementById("pricechart").hidden && document.getElementById("pricestatus").hidden && miniApp.state.priceSeries.data().length >= 5`
	retryable = `!document.getElementById("retry").hidden`
)

// TestAFailedChartRequestSaysWhatHappenedAndWhatToDo: each way a tapped
// holding's chart can fail reads as what it is, with a retry where one
// helps, and the retry draws the chart once the bot answers.
func TestAFailedChartRequestSaysWhatHappenedAndWhatToDo(t *testing.T) {
	net := newChartNet()
	ctx := openPortfolio(t, net)
	for _, tc := range []struct {
		name  string
		fn    func(http.ResponseWriter, *http.Request, http.Handler)
		says  string
		retry bool
	}{
		{"a session past 24 hours (401)", answer(http.StatusUnauthorized), "sign-in lasts 24 hours. Close the page and open it again", false},
		{"fast taps (429)", answer(http.StatusTooManyRequests), "Too many taps at once. Wait a second, then try again.", true},
		{"no network", drop, "Could not reach the bot: you may be offline", true},
		{"the bot failed (500)", answer(http.StatusInternalServerError), "could not answer just now (error 500)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net.set(tc.fn)
			eval(t, ctx, tapBTC)
			waitFor(t, ctx, `document.getElementById("pricemsg").textContent.includes(`+jsString(tc.says)+`)`)
			if got := eval(t, ctx, `String(!document.getElementById("retry").hidden)`); got != map[bool]string{true: "true", false: "false"}[tc.retry] {
				t.Errorf("a retry offered: %s, want %v", got, tc.retry)
			}
			if eval(t, ctx, `document.getElementById("pricemsg").textContent`) == "" || strings.Contains(eval(t, ctx, `document.getElementById("price").innerText`), "no price history") {
				t.Errorf("the failure reads %q", eval(t, ctx, `document.getElementById("price").innerText`))
			}
			net.set(nil)
			if tc.retry {
				eval(t, ctx, `document.getElementById("retry").click()`)
				waitFor(t, ctx, drawn)
			}
		})
	}
}

// TestAHungChartRequestTimesOutWithARetry: a bot that never answers
// leaves no "Loading" forever: the request times out, says so, and the
// retry draws the chart.
func TestAHungChartRequestTimesOutWithARetry(t *testing.T) {
	net := newChartNet()
	ctx := openPortfolio(t, net)
	eval(t, ctx, `miniApp.config.timeout = 300`)
	net.set(func(_ http.ResponseWriter, r *http.Request, _ http.Handler) {
		select {
		case <-r.Context().Done():
		case <-net.done:
		}
	})
	eval(t, ctx, tapBTC)
	waitFor(t, ctx, `document.getElementById("pricemsg").textContent.includes("did not answer in time") && `+retryable)
	net.set(nil)
	eval(t, ctx, `miniApp.config.timeout = 12000`)
	eval(t, ctx, `document.getElementById("retry").click()`)
	waitFor(t, ctx, drawn)
}

// TestAnOlderChartAnswerNeverReplacesTheLatestTap: BTC's chart, tapped
// first, answers after ETH's, tapped last: ETH's stays.
func TestAnOlderChartAnswerNeverReplacesTheLatestTap(t *testing.T) {
	net := newChartNet()
	ctx := openPortfolio(t, net)
	held, release := make(chan struct{}), make(chan struct{})
	net.set(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Query().Get("symbol") == "BTC" {
			close(held)
			select {
			case <-release:
			case <-net.done:
			}
		}
		next.ServeHTTP(w, r)
	})
	eval(t, ctx, tapBTC)
	<-held
	eval(t, ctx, tapETH)
	waitFor(t, ctx, ``+drawn+` && document.getElementById("pricetitle").textContent.startsWith("ETH")`)
	close(release)
	waitFor(t, ctx, `miniApp.state.settled >= 2`)
	if title := eval(t, ctx, `document.getElementById("pricetitle").textContent`); !strings.HasPrefix(title, "ETH") {
		t.Errorf("after BTC's late answer the chart reads %q, want ETH's", title)
	}
}

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestAPortfolioThatFailsToLoadOffersARetry: the bot failing the page's
// first request says so, and Try again loads the portfolio.
func TestAPortfolioThatFailsToLoadOffersARetry(t *testing.T) {
	net := newChartNet()
	net.path = "/api/me"
	net.set(answer(http.StatusServiceUnavailable))
	bt := startBot(t, net.wrap)
	t.Cleanup(func() { close(net.done) })
	bt.say(t, "/coin_topup 10000")
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(signFor(bt.tg.Token, trader, traderName, time.Now(), ""), lightTheme)),
		chromedp.WaitVisible(chromedp.ID("again"))); err != nil {
		t.Fatalf("no retry on the failure page: %v", err)
	}
	if why := eval(t, ctx, `document.getElementById("why").textContent`); !strings.Contains(why, "error 503") {
		t.Errorf("the failure reads %q", why)
	}
	net.set(nil)
	eval(t, ctx, `document.getElementById("again").click()`)
	waitFor(t, ctx, `!document.getElementById("app").hidden && document.getElementById("cash").textContent === "$10,000.00"`)
}
