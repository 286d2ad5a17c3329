package trading

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// priceTable prices symbols from a table, or is down; it counts each ask.
type priceTable struct {
	mu     sync.Mutex
	prices map[string]string
	down   bool
	asked  map[string]int
}

func newTable(prices map[string]string) *priceTable {
	return &priceTable{prices: prices, asked: map[string]int{}}
}

func (f *priceTable) set(sym, price string, down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prices[sym], f.down = price, down
}

func (f *priceTable) source() Source {
	return Source{Name: "Fake", Price: func(_ context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.asked[sym]++
		if f.down {
			return decimal.Zero, errors.New("HTTP 503")
		}
		p, ok := f.prices[sym]
		if !ok {
			return decimal.Zero, ErrUnknown
		}
		return d(p), nil
	}}
}

// sentBot records the messages sent; fail, when set, answers a send.
type sentBot struct {
	app.Messenger // nil: only Send is used
	mu            sync.Mutex
	sent          []app.Message
	fail          func() error
	lastThread    int // the topic of the send being made, for fail
}

func (b *sentBot) Send(_ context.Context, m app.Message) (*models.Message, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lastThread = m.ThreadID
	if b.fail != nil {
		if err := b.fail(); err != nil {
			return nil, err
		}
	}
	b.sent = append(b.sent, m)
	return &models.Message{ID: len(b.sent)}, nil
}

func (b *sentBot) texts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.sent {
		out = append(out, m.Text)
	}
	return out
}

// clock is a settable clock safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// alertNow is 2026-12-03 20:35 ICT.
var alertNow = time.Date(2026, 12, 3, 13, 35, 0, 0, time.UTC)

// replica is one process's coin alerts over s: its own quotes (fresh
// for fresh), source and messenger.
func replica(s storage.KVStore, clk *clock, src *priceTable, bot *sentBot, fresh time.Duration) *Alerts {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	q := &Quotes{Store: s, Log: log, Now: clk.Now, Fresh: fresh, Sources: []Source{src.source()}}
	upper := func(s string) (string, bool) { s = strings.ToUpper(s); return s, UpperAlnum(s, 2, 10) }
	kit := &Kit{Market: usd, Currency: "USD", Name: "coin", Start: "1000", Symbol: upper, AlertExample: "BTC above 120000"}
	desk := &Desk{Kit: kit, Quotes: q, Texts: chatTexts{}, Bot: bot}
	desk.Alerts = &Alerts{Desk: desk}
	return withTimers(desk.Alerts, s, clk)
}

// arm stores an alert for user in chat, as the command would.
func arm(t *testing.T, a *Alerts, user int64, sym string, above bool, level string, chat int64) int64 {
	t.Helper()
	var id int64
	err := storage.UpdateJSON(context.Background(), a.store(), bookKey(user), func(b *alertBook, _ bool) (bool, error) {
		b.Seq++
		id = b.Seq
		b.Alerts = append(b.Alerts, Alert{ID: id, Symbol: sym, Above: above, Level: d(level), Chat: chat, Thread: 5, Set: a.now()})
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func pending(t *testing.T, a *Alerts, user int64) int {
	t.Helper()
	b, err := a.loadBook(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return len(b.Alerts)
}

// An alert fires once: across two checks in the same minute, and across
// two replicas checking at once over one store, on every backend; each
// symbol is priced once per check however many alerts watch it.
func TestAnAlertFiresOnceAcrossChecksAndReplicas(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, prov storage.KVProvider) {
		ctx := context.Background()
		s := prov.For("coin")
		clk := &clock{t: alertNow}
		bot := &sentBot{}
		srcA, srcB := newTable(map[string]string{"BTC": "110000", "ETH": "3000"}), newTable(map[string]string{"BTC": "110000", "ETH": "3000"})
		a, b := replica(s, clk, srcA, bot, 0), replica(s, clk, srcB, bot, 0)
		for u := int64(1); u <= 5; u++ {
			arm(t, a, u, "BTC", true, "120000", -100)
			arm(t, a, u, "ETH", false, "2000", -100)
		}
		if err := a.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
		if srcA.asked["BTC"] != 1 || srcA.asked["ETH"] != 1 || len(bot.texts()) != 0 {
			t.Fatalf("a check with 5 alerts on each of BTC, ETH: asked %v, sent %v; want each once, nothing sent", srcA.asked, bot.texts())
		}
		srcA.set("BTC", "120000.01", false)
		srcB.set("BTC", "120000.01", false)
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		for _, r := range []*Alerts{a, a, b} { // two checks of one minute on A, one on B, at once
			wg.Add(1)
			go func() { defer wg.Done(); errs <- r.checkThenTick(ctx) }()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil && !backendtest.AtomicValueCAS(t, prov) {
				t.Skip(backendtest.FerretDBLimit)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := b.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
		sent := bot.texts()
		if len(sent) != 5 && !backendtest.AtomicValueCAS(t, prov) {
			t.Skip(backendtest.FerretDBLimit) // the race above ran
		}
		if len(sent) != 5 {
			t.Fatalf("%d messages for 5 crossed alerts: %q", len(sent), sent)
		}
		want := "🔔 BTC rose to or above $120,000.00: $120,000.01 (Fake, 03 Dec 2026 20:35 ICT)."
		if sent[0] != want {
			t.Fatalf("message %q\nwant    %q", sent[0], want)
		}
		for u := int64(1); u <= 5; u++ {
			if n := pending(t, a, u); n != 1 {
				t.Fatalf("user %d has %d alerts; want the ETH one left", u, n)
			}
		}
		if bot.sent[0].ChatID != -100 || bot.sent[0].ThreadID != 5 {
			t.Fatalf("sent to %d topic %d; want the chat and topic it was set in", bot.sent[0].ChatID, bot.sent[0].ThreadID)
		}
	})
}

// A Cancel racing a fire: whichever wins the swap decides; a confirmed
// cancel means no message ever, a fire means exactly one.
func TestACancelRacingAFireIsDecidedOnce(t *testing.T) {
	ctx := context.Background()
	for i := range 40 {
		s := memory.New().For("coin")
		clk := &clock{t: alertNow}
		bot := &sentBot{}
		a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
		id := arm(t, a, 1, "BTC", true, "120000", -100)
		var toast string
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			var err error
			if toast, err = a.cancel(ctx, english, 1, id); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := a.checkThenTick(ctx); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		clk.Add(time.Minute)
		if err := a.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
		sent := len(bot.texts())
		switch {
		case strings.HasPrefix(toast, "Cancelled: ") && sent != 0:
			t.Fatalf("run %d: the cancel was confirmed (%q) and the alert fired too", i, toast)
		case strings.HasPrefix(toast, "Too late: "), strings.HasPrefix(toast, "This alert is gone: fired"):
			if sent != 1 {
				t.Fatalf("run %d: the fire won (%q) and %d messages were sent; want 1", i, toast, sent)
			}
		case !strings.HasPrefix(toast, "Cancelled: "):
			t.Fatalf("run %d: toast %q", i, toast)
		}
	}
}

// An outage delays an alert and never fires it on a made-up price; the
// recovery fires it once, at the recovered price. A price older than the
// check's tolerance is no price.
func TestAnOutageDelaysAnAlertAndTheRecoveryFiresItOnce(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	src := newTable(map[string]string{"BTC": "119000"})
	a := replica(s, clk, src, bot, 0)
	arm(t, a, 1, "BTC", true, "120000", -100)
	src.set("BTC", "125000", true) // down: its price is not seen
	for range 3 {
		if err := a.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Minute)
	}
	if len(bot.texts()) != 0 || pending(t, a, 1) != 1 {
		t.Fatalf("during the outage: sent %q; want nothing, the alert kept", bot.texts())
	}
	// A stale cached price (a quote cache longer than the tolerance) is no price.
	stale := replica(s, clk, src, bot, time.Hour)
	if err := s.PutJSON(ctx, "price:BTC", Quote{Price: d("126000"), Source: "Fake", At: clk.Now().Add(-10 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := stale.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	if len(bot.texts()) != 0 {
		t.Fatalf("a price 10 minutes old fired the alert: %q", bot.texts())
	}
	src.set("BTC", "121500.5", false)
	for range 2 {
		clk.Add(time.Minute)
		if err := a.checkThenTick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	sent := bot.texts()
	if len(sent) != 1 || !strings.Contains(sent[0], ": $121,500.50 (Fake, 03 Dec 2026 20:39 ICT).") {
		t.Fatalf("after the recovery: %q; want one message at the recovered price and time", sent)
	}
}

// A send that fails is sent by the next check, once; a chat gone drops it.
func TestAFailedSendIsSentByTheNextCheck(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000", "ETH": "1000"}), bot, 0)
	arm(t, a, 1, "BTC", true, "120000", -100)
	bot.fail = func() error { return errors.New("HTTP 502") }
	if err := a.checkThenTick(ctx); err == nil {
		t.Fatal("a failed send: the check must fail, so it is seen")
	}
	bot.fail = nil
	clk.Add(time.Minute)
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	if sent := bot.texts(); len(sent) != 1 || !strings.Contains(sent[0], "$130,000.00") {
		t.Fatalf("sent %q; want the alert once, at the price it fired at", sent)
	}
	arm(t, a, 2, "ETH", false, "2000", -200)
	bot.fail = func() error { return fmt.Errorf("kicked: %w", app.ErrChatGone) }
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	bot.fail = nil
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := pending(t, a, 2); n != 0 || len(bot.texts()) != 1 {
		t.Fatalf("a chat gone: %d alerts left, %d sent; want it dropped", n, len(bot.texts()))
	}
}

// The same Cancel pressed again (tomorrow) says what became of the alert.
func TestACancelPressedAgainGetsAClearAnswer(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	src := newTable(map[string]string{"BTC": "100000"})
	a := replica(s, clk, src, bot, 0)
	cancelled := arm(t, a, 1, "BTC", true, "120000", -100)
	fired := arm(t, a, 1, "BTC", false, "90000", -100)
	steps := []struct {
		id    int64
		later time.Duration
		want  string
	}{
		{cancelled, 0, "Cancelled: BTC above $120,000.00. It will not fire."},
		{cancelled, 24 * time.Hour, "This alert is gone: cancelled on 03 Dec 2026 20:35 ICT."},
		{fired, 0, "This alert is gone: fired on 04 Dec 2026 20:36 ICT."},
		{99, 0, "This alert is gone: it fired or was cancelled."},
	}
	for i, st := range steps {
		clk.Add(st.later)
		if i == 2 {
			src.set("BTC", "89000", false)
			clk.Add(time.Minute)
			if err := a.checkThenTick(ctx); err != nil {
				t.Fatal(err)
			}
		}
		got, err := a.cancel(ctx, english, 1, st.id)
		if err != nil {
			t.Fatal(err)
		}
		if got != st.want {
			t.Fatalf("press %d: %q; want %q", i, got, st.want)
		}
	}
}

// An alert moves with its group to the supergroup, and a chat gone drops it.
func TestAlertsMoveWithTheChat(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
	arm(t, a, 1, "BTC", true, "120000", -100)
	arm(t, a, 2, "BTC", true, "120000", -300)
	for _, ch := range []app.ChatChange{{ChatID: -100, MovedTo: -1000100}, {ChatID: -100, MovedTo: -1000100}, {ChatID: -300}} {
		if err := a.Desk.OnChatChange(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.checkThenTick(ctx); err != nil {
		t.Fatal(err)
	}
	if len(bot.sent) != 1 || bot.sent[0].ChatID != -1000100 {
		t.Fatalf("sent %+v; want one message, to the supergroup", bot.sent)
	}
}

// The Cancel button fits Telegram's 64 bytes for the longest market name
// and the largest ids.
func TestTheCancelButtonFits(t *testing.T) {
	a := &Alerts{Desk: &Desk{Kit: &Kit{Name: "stock"}}}
	const most = int64(1<<63 - 1)
	if _, err := app.Keyboard([]app.Button{a.cancelButton(most, most, "❌ Cancel")}); err != nil {
		t.Fatal(err)
	}
}

// A user's alerts record that cannot be read is reported, and holds up no
// one else's alert.
func TestAnUnreadableRecordHoldsUpNoOtherAlert(t *testing.T) {
	ctx := context.Background()
	s := memory.New().For("coin")
	clk := &clock{t: alertNow}
	bot := &sentBot{}
	a := replica(s, clk, newTable(map[string]string{"BTC": "130000"}), bot, 0)
	if err := s.Put(ctx, bookKey(9), []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	arm(t, a, 1, "BTC", true, "120000", -100)
	if err := a.checkThenTick(ctx); err == nil || !strings.Contains(err.Error(), "alerts of 9") {
		t.Fatalf("check: %v; want user 9's record reported", err)
	}
	if len(bot.texts()) != 1 {
		t.Fatalf("sent %q; want user 1's alert", bot.texts())
	}
}
