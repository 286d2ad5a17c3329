package webapp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// chromiumPath is the browser the page tests drive: CHROMIUM_PATH, else
// Debian's chromium on PATH (.ci/run installs it). Like the integration
// tests, they fail without it, and only -short skips them.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testing.Short() {
		t.Skip("no chromium: browser test skipped in -short mode")
	}
	t.Fatal("no chromium on PATH (nor CHROMIUM_PATH): apt-get install chromium, as .ci/run does (or pass -short to skip browser tests)")
	return ""
}

// browser is a headless Chromium with a phone's viewport, for the test.
// telegram.org is blocked: the page must work on its own files, as it
// does in a browser that cannot reach Telegram's script.
func browser(t testing.TB) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath(t)), chromedp.NoSandbox,
		chromedp.WindowSize(390, 844), chromedp.Flag("host-resolver-rules", "MAP telegram.org 127.0.0.1:9"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// The seeded user and group.
const (
	trader     = 4242
	traderName = "Linh"
	group      = -1001234
)

// bot is the container's bot on the memory store, its HTTP surface on a
// test server, prices from a fake Binance.
type bot struct {
	b    *wiring.Bot
	tg   *telegramtest.Server
	srv  *httptest.Server
	logs *syncBuffer
	// updates numbers the updates say sends, as Telegram does.
	updates int64
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.buf.String() }

// binance answers /api/v3/ticker/price and /api/v3/klines in Binance's
// shapes (recorded answers of both are in internal/modules/coin/testdata):
// the pair echoed, prices strings of eight decimals; klines are limit
// candles of the interval asked, ending at endTime, around the price.
func binance(prices map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		pair := q.Get("symbol")
		p, ok := prices[pair]
		switch {
		case !ok:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"code":-1121,"msg":"Invalid symbol."}`)
		case r.URL.Path == "/api/v3/ticker/price":
			fmt.Fprintf(w, `{"symbol":%q,"price":%q}`, pair, p)
		case r.URL.Path == "/api/v3/klines":
			writeKlines(w, p, q.Get("interval"), q.Get("limit"), q.Get("endTime"))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}
}

func writeKlines(w io.Writer, price, interval, limit, endTime string) {
	base, _ := strconv.ParseFloat(price, 64)
	n, _ := strconv.Atoi(limit)
	end, _ := strconv.ParseInt(endTime, 10, 64)
	step := map[string]time.Duration{"15m": 15 * time.Minute, "2h": 2 * time.Hour, "8h": 8 * time.Hour, "3d": 72 * time.Hour}[interval]
	var rows []string
	for i := range n {
		open := time.UnixMilli(end).Add(-time.Duration(n-i) * step)
		o := base * (1 + 0.01*float64((i*7)%5-2))
		c := base * (1 + 0.01*float64((i*3)%5-2))
		h, l := max(o, c)*1.004, min(o, c)*0.996
		rows = append(rows, fmt.Sprintf(`[%d,"%.8f","%.8f","%.8f","%.8f","12.5",%d]`, open.UnixMilli(), o, h, l, c, open.Add(step).UnixMilli()-1))
	}
	_, _ = io.WriteString(w, "["+strings.Join(rows, ",")+"]")
}

// startBot starts the bot; wrap, if given, stands in front of its HTTP
// surface (a test's network between the page and the bot).
func startBot(t *testing.T, wrap ...func(http.Handler) http.Handler) *bot {
	t.Helper()
	tg := telegramtest.New(t)
	prices := httptest.NewServer(binance(map[string]string{"BTCUSDT": "97012.34000000", "ETHUSDT": "3500.50000000"}))
	t.Cleanup(prices.Close)
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": tg.Token, "TELEGRAM_API_URL": tg.URL, "TELEGRAM_BOT_USERNAME": "miti99bot", "KV_PROVIDER": "memory",
		"BINANCE_API_URL": prices.URL, "COINBASE_API_URL": prices.URL, "COINGECKO_API_URL": prices.URL,
	}
	logs := &syncBuffer{}
	b, err := wiring.Build(t.Context(), wiring.Options{Runtime: wiring.RuntimeContainer, Getenv: func(k string) string { return env[k] }, Logs: logs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	h := b.HTTP
	for _, w := range wrap {
		h = w(h)
	}
	bt := &bot{b: b, tg: tg, srv: httptest.NewServer(h), logs: logs}
	t.Cleanup(bt.srv.Close)
	return bt
}

// say sends text from the trader in their private chat, handled to the
// end, and returns the bot's last reply there.
func (bt *bot) say(t *testing.T, text string) string {
	t.Helper()
	return bt.sayIn(t, trader, trader, traderName, text)
}

// sayIn sends text from user, named name, in chat, and returns the bot's
// last reply there.
func (bt *bot) sayIn(t *testing.T, chat, user int64, name, text string) string {
	t.Helper()
	bt.updates++
	u := telegramtest.Text(chat, user, text)
	u.ID = bt.updates
	u.Message.From.FirstName, u.Message.From.Username = name, ""
	if err := bt.b.App.HandleUpdate(t.Context(), u); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	msgs := bt.tg.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].ChatID == chat {
			return msgs[i].Text
		}
	}
	t.Fatalf("%s: no reply", text)
	return ""
}

// seedValues records days of the trader's coin portfolio, as the daily
// job would have.
func (bt *bot) seedValues(t *testing.T, days int) {
	t.Helper()
	var pts []trading.DayPoint
	start := time.Date(2026, 11, 1, 17, 0, 0, 0, time.UTC)
	for i := range days {
		at := start.AddDate(0, 0, i)
		wiggle := decimal.NewFromInt(int64((i*37)%11) * 40)
		pts = append(pts, trading.DayPoint{Day: at.Add(time.Hour).Format(time.DateOnly), At: at,
			Cash: decimal.NewFromInt(8500), Holdings: decimal.NewFromInt(1300).Add(wiggle), Deposited: decimal.NewFromInt(10000)})
	}
	if err := bt.b.Store.For("coin").PutJSON(t.Context(), "value:"+fmt.Sprint(trader), pts); err != nil {
		t.Fatal(err)
	}
}

// link is the page's URL with initData in its fragment, as Telegram's
// clients open a Mini App, and Telegram's light theme.
func (bt *bot) link(initData, theme string) string {
	return bt.srv.URL + "/app/#tgWebAppData=" + url.QueryEscape(initData) + "&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=" + url.QueryEscape(theme)
}

// Telegram's own light and dark themes (its Android client's defaults).
const (
	lightTheme = `{"bg_color":"#ffffff","text_color":"#000000","hint_color":"#707579","link_color":"#3390ec","button_color":"#3390ec","button_text_color":"#ffffff","secondary_bg_color":"#f4f4f5"}`
	darkTheme  = `{"bg_color":"#212121","text_color":"#ffffff","hint_color":"#aaaaaa","link_color":"#8774e1","button_color":"#8774e1","button_text_color":"#ffffff","secondary_bg_color":"#181818"}`
)

// signFor is initData Telegram would give user, opened at authDate.
func signFor(token string, user int64, name string, authDate time.Time, startParam string) string {
	vals := url.Values{"auth_date": {fmt.Sprint(authDate.Unix())}, "query_id": {"AAHdF6IQAAAAAN0XohDhrOrc"},
		"user": {fmt.Sprintf(`{"id":%d,"first_name":%q,"language_code":"en"}`, user, name)}}
	if startParam != "" {
		vals.Set("start_param", startParam)
		vals.Set("chat_type", "supergroup")
	}
	return initdata.Sign(token, vals)
}

// artefact keeps a screenshot: in the directory MINIAPP_SCREENSHOTS names
// (relative to this package's directory, where go test runs), else in the
// test's artifact directory (kept with go test -artifacts).
func artefact(t *testing.T, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("MINIAPP_SCREENSHOTS")
	if dir == "" {
		dir = t.ArtifactDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// wheel is a mouse-wheel turn of dy pixels. The protocol wants deltaX too,
// which a zero would leave out of the call: a hair of it is sent.
func wheel(dy float64) chromedp.MouseOption {
	return func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 0.01, dy }
}

// poll waits until the page's expression is true, within 20 s.
func poll(ctx context.Context, expr string) error {
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second)))
	return err
}

// readSample is the recorded real initData (initdata/testdata/README.md).
func readSample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("initdata/testdata/sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// shot keeps a screenshot of the whole page.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	artefact(t, name, png)
}
