package lolschedule_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const pushJob = "lolschedule_daily_push"

// slot is 01:00 UTC, 08:00 in Vietnam, on the test's day.
var slot = time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)

// subscribe adds subscribers straight into the module's store.
func (e *env) subscribe(t testing.TB, subs ...[2]int64) {
	t.Helper()
	for _, s := range subs {
		if err := e.Store.For("lolschedule").Put(context.Background(), fmt.Sprintf("sub:%d:%d", s[0], s[1]), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
}

func (e *env) subscriberKeys(t testing.TB) []string {
	keys, err := e.Store.For("lolschedule").List(context.Background(), "sub:")
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// digests counts the digests each (chat, topic) received.
func (e *env) digests() map[[2]int64]int {
	got := map[[2]int64]int{}
	for _, m := range e.Srv.Messages() {
		if strings.HasPrefix(m.Text, "<b>LoL today") || strings.HasPrefix(m.Text, "No LoL") {
			got[[2]int64{m.ChatID, int64(m.ThreadID)}]++
		}
	}
	return got
}

// pushDay runs the push job for at, then fires the timers it set as a
// tick of the timers engine does: the error is the job's, or says how
// many sends failed (their timers are tried again at the next tick).
func (e *env) pushDay(ctx context.Context, d *cron.Dispatcher, at time.Time) (cron.Outcome, error) {
	out, err := d.Dispatch(ctx, pushJob, at)
	if err != nil {
		return out, err
	}
	st, err := e.App.Timers().Tick(ctx)
	if err != nil {
		return out, err
	}
	if st.Waits > 0 || ctx.Err() != nil {
		return out, fmt.Errorf("%d of %d sends failed", st.Waits, st.Due)
	}
	return out, nil
}

func newPushEnv(t *testing.T, settings map[string]string) (*env, *cron.Dispatcher) {
	e := newEnv(t, settings)
	e.clk.Set(slot.Add(3 * time.Second))
	return e, e.Dispatcher(e.clk.Now)
}

func TestADoubleFireSendsOneDigest(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.subscribe(t, [2]int64{-1, 0}, [2]int64{-2, 7}, [2]int64{3, 0})
	for range 2 { // EventBridge and the container, or Scheduler's retry
		if _, err := e.pushDay(t.Context(), d, slot); err != nil {
			t.Fatal(err)
		}
	}
	got := e.digests()
	if len(got) != 3 || got[[2]int64{-1, 0}] != 1 || got[[2]int64{-2, 7}] != 1 || got[[2]int64{3, 0}] != 1 {
		t.Fatalf("digests per subscriber: %v", got)
	}
	msg := e.Srv.Messages()[0]
	if !strings.HasPrefix(msg.Text, "<b>LoL today, Wed 25/11/2026 (ICT)</b>") || !strings.Contains(msg.Text, "15:00  <b>T1</b> 2-1 GEN") || msg.ParseMode != "HTML" {
		t.Fatalf("digest = %+v", msg)
	}
}

// A chat that is gone is forgotten; a topic whose sends are refused (gone
// or closed: it may come back) keeps its subscription but is not tried
// again today; a transient failure is retried.
func TestGoneChatsArePrunedRefusedTopicsKeptAndTransientFailuresRetried(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.subscribe(t, [2]int64{1, 0}, [2]int64{2, 0}, [2]int64{-3, 4}, [2]int64{-3, 5}, [2]int64{4, 0}, [2]int64{5, 0})
	e.Srv.Block(2)
	e.Srv.FailChat(4, telegramtest.Failure{Code: 400, Description: "Bad Request: chat not found"})
	e.Srv.DeleteThread(-3, 4)
	e.Srv.FailChat(5, telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if _, err := e.pushDay(t.Context(), d, slot); err == nil || !strings.Contains(err.Error(), "1 of 6 sends failed") {
		t.Fatalf("Dispatch = %v, want the transient failure reported", err)
	}
	keys := strings.Join(e.subscriberKeys(t), " ")
	if keys != "sub:-3:4 sub:-3:5 sub:1:0 sub:5:0" {
		t.Fatalf("subscribers left: %s (blocked and deleted chats go; a refused topic and a 502 stay)", keys)
	}
	calls := len(e.Srv.Calls("sendMessage"))
	if _, err := e.pushDay(t.Context(), d, slot); err == nil {
		t.Fatal("the retry: chat 5 still answers 502, the job must still fail")
	}
	if again := len(e.Srv.Calls("sendMessage")) - calls; again != 1 {
		t.Fatalf("the retry made %d sends, want 1 (only the transient failure; no final answer is retried)", again)
	}
}

func TestNothingIsSentOnADayWithoutMatchesUnlessConfigured(t *testing.T) {
	for _, pushEmpty := range []string{"false", "true"} {
		t.Run("LOLSCHEDULE_PUSH_EMPTY="+pushEmpty, func(t *testing.T) {
			e, d := newPushEnv(t, map[string]string{"LOLSCHEDULE_PUSH_EMPTY": pushEmpty})
			e.clk.Set(time.Date(2027, 1, 1, 1, 0, 5, 0, time.UTC))
			e.subscribe(t, [2]int64{1, 0})
			if _, err := e.pushDay(t.Context(), d, time.Date(2027, 1, 1, 1, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			want := 0
			if pushEmpty == "true" {
				want = 1
			}
			if n := len(e.Srv.Messages()); n != want {
				t.Fatalf("%d messages, want %d", n, want)
			}
		})
	}
}

// pushThousand runs the daily push to 1,000 subscribers against the fake
// Bot API's 30 messages a second, and returns how long it took.
func pushThousand(t testing.TB) (time.Duration, *env) {
	api := newFakeAPI(t)
	seed(api)
	e, d := newPushEnvWith(t, api, telegramtest.WithRateLimit(30))
	var subs [][2]int64
	for i := range 1000 {
		subs = append(subs, [2]int64{int64(10_000 + i), 0})
	}
	e.subscribe(t, subs...)
	start := time.Now()
	if _, err := e.pushDay(context.Background(), d, slot); err != nil {
		t.Fatal(err)
	}
	return time.Since(start), e
}

func TestAThousandSubscribersWithinTheRateLimit(t *testing.T) {
	t.Parallel() // about 34 s of pacing: let the other tests run meanwhile
	_, e := pushThousand(t)
	if got := len(e.digests()); got != 1000 {
		t.Fatalf("%d of 1000 subscribers reached", got)
	}
	if n := e.Srv.Limited(); n != 0 {
		t.Fatalf("the fake answered 429 %d times; flood control should keep under its limit", n)
	}
}

// BenchmarkDailyPush1000 reports the push's duration relative to the ideal
// N/30 s that Telegram's limit allows.
func BenchmarkDailyPush1000(b *testing.B) {
	for b.Loop() {
		took, _ := pushThousand(b)
		ideal := time.Duration(1000) * time.Second / 30
		b.ReportMetric(took.Seconds(), "s/push")
		b.ReportMetric(took.Seconds()/ideal.Seconds(), "x_ideal")
	}
}

// BenchmarkDailyPush10k is the push to 10,000 subscribers (one in ten a
// group) at Telegram's bulk rate on both sides, the fake Bot API's limit and
// the client's pace: it takes 334 s, so make bench runs the scaled one.
// Run: go test -run '^$' -bench 'DailyPush10k$' -benchtime 1x -timeout 20m ./internal/modules/lolschedule/
func BenchmarkDailyPush10k(b *testing.B) { benchPush10k(b, 30) }

// BenchmarkDailyPush10kScaled is the same at ten times the rate on both
// sides (300/s: 34 s). The push holds the rate if x_ideal stays near 1 and
// no 429 comes; at ten times the rate the per-send work weighs ten times more.
// Run: go test -run '^$' -bench DailyPush10kScaled -benchtime 1x ./internal/modules/lolschedule/
func BenchmarkDailyPush10kScaled(b *testing.B) { benchPush10k(b, 300) }

func benchPush10k(b *testing.B, perSecond int) {
	const n = 10_000
	for b.Loop() {
		api := newFakeAPI(b)
		seed(api)
		e := newEnvWithClient(b, api, nil, []telegram.Option{telegram.WithRates(rate.Limit(perSecond), 1)}, telegramtest.WithRateLimit(perSecond))
		e.clk.Set(slot.Add(3 * time.Second))
		d := e.Dispatcher(e.clk.Now)
		var subs [][2]int64
		for i := range n {
			chat := int64(100_000 + i)
			if i%10 == 0 {
				chat = -chat // a group: its own pace too
			}
			subs = append(subs, [2]int64{chat, 0})
		}
		e.subscribe(b, subs...)
		start := time.Now()
		if _, err := e.pushDay(context.Background(), d, slot); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		if got := len(e.digests()); got != n {
			b.Fatalf("%d of %d subscribers reached", got, n)
		}
		ideal := time.Duration(n) * time.Second / time.Duration(perSecond)
		b.ReportMetric(took.Seconds(), "s/push")
		b.ReportMetric(took.Seconds()/ideal.Seconds(), "x_ideal")
		b.ReportMetric(float64(e.Srv.Limited()), "429s")
	}
}

func newPushEnvWith(t testing.TB, api *fakeAPI, opts ...telegramtest.Option) (*env, *cron.Dispatcher) {
	e := newEnvWith(t, api, nil, opts...)
	e.clk.Set(slot.Add(3 * time.Second))
	return e, e.Dispatcher(e.clk.Now)
}

func TestTwoOverlappingPushesSendOneDigestPerChat(t *testing.T) {
	e, d := newPushEnv(t, nil)
	subs := [][2]int64{{-1, 0}, {-2, 7}, {3, 0}, {4, 0}, {5, 0}}
	e.subscribe(t, subs...)
	slow := make([]telegramtest.Failure, 2*len(subs)) // every send takes a while: the pushes overlap
	for i := range slow {
		slow[i] = telegramtest.Failure{Delay: 20 * time.Millisecond}
	}
	e.Srv.FailNext("sendMessage", slow...)
	var wg sync.WaitGroup
	// The scheduled run and a manual run of another minute: two slots, so
	// the slot claim lets both in; the per-chat claim must not.
	for _, at := range []time.Time{slot, slot.Add(time.Minute)} {
		wg.Go(func() {
			if _, err := e.pushDay(context.Background(), d, at); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got := e.digests()
	for _, s := range subs {
		if got[s] != 1 {
			t.Fatalf("digests per subscriber %v: want exactly one each", got)
		}
	}
}

// The day's run sends nothing itself: it sets each chat's message as a
// timer keyed by the day and the chat, which the timers engine fires once;
// the module keeps no claims of its own.
func TestEachChatsDayIsSentThroughATimerKeyedByDayAndChat(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.subscribe(t, [2]int64{-1, 0}, [2]int64{-2, 7})
	if _, err := d.Dispatch(t.Context(), pushJob, slot); err != nil {
		t.Fatal(err)
	}
	if n := len(e.Srv.Messages()); n != 0 {
		t.Fatalf("the run sent %d messages itself", n)
	}
	keys, err := e.Store.For("core").List(t.Context(), "timer:by:lolschedule:")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, " "); got != "timer:by:lolschedule:push:2026-11-25:-1:0 timer:by:lolschedule:push:2026-11-25:-2:7" {
		t.Fatalf("the run's timers: %s", got)
	}
	if _, err := e.App.Timers().Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := e.digests(); len(got) != 2 {
		t.Fatalf("digests per subscriber: %v", got)
	}
	if own, err := e.Store.For("lolschedule").List(t.Context(), "sent:"); err != nil || len(own) != 0 {
		t.Errorf("the module's own marks: %v, %v; want none", own, err)
	}
}

// On the deploy day the build before this one may have pushed some chats
// already, marking each with a claim at "sent:<day>:<chat>:<thread>": a
// chat whose mark says sent or being sent gets nothing again from this
// build's run of the same day; one whose mark says the send failed, or
// with no mark, gets its day. The marks are only read.
func TestTheDeployDaysChatsTheOldBuildPushedAreNotPushedAgain(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.subscribe(t, [2]int64{-1, 0}, [2]int64{-2, 7}, [2]int64{-3, 0}, [2]int64{-4, 0})
	at := slot.UnixNano()
	marks := map[string]string{
		"sent:2026-11-25:-1:0": fmt.Sprintf(`{"state":"done","at":%d}`, at),
		"sent:2026-11-25:-2:7": fmt.Sprintf(`{"state":"running","at":%d}`, at),
		"sent:2026-11-25:-3:0": fmt.Sprintf(`{"state":"failed","at":%d}`, at),
	}
	own := e.Store.For("lolschedule")
	for k, v := range marks {
		if err := own.Put(t.Context(), k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.pushDay(t.Context(), d, slot); err != nil {
		t.Fatal(err)
	}
	want := map[[2]int64]int{{-3, 0}: 1, {-4, 0}: 1}
	if got := e.digests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("digests %v, want %v: only the chats the old build did not push", got, want)
	}
	for k, v := range marks {
		if got, err := own.Get(t.Context(), k); err != nil || string(got) != v {
			t.Errorf("the mark %s is now %q (%v), want it as the old build left it", k, got, err)
		}
	}
}

// A group that became a supergroup gets its day once at its new id, even
// when the store refuses the hold of the day under that id: the message is
// out, and nothing sends it again.
func TestAnUpgradedGroupsDayIsSentOnceWhenItsHoldFails(t *testing.T) {
	api := newFakeAPI(t)
	seed(api)
	u := storagetest.NewUnheard(memory.New())
	e := newEnvOnStore(t, u, api, nil, nil)
	e.clk.Set(slot.Add(3 * time.Second))
	d := e.Dispatcher(e.clk.Now)
	e.subscribe(t, [2]int64{-1, 0})
	e.Srv.Upgrade(-1, -1001)
	if _, err := d.Dispatch(t.Context(), pushJob, slot); err != nil {
		t.Fatal(err)
	}
	u.Arm(storage.CoreNamespace, "timer:by:lolschedule:push:2026-11-25:-1001:", false)
	for range 3 {
		_, _ = e.App.Timers().Tick(t.Context())
		e.clk.Add(time.Minute)
	}
	if got := e.digests(); got[[2]int64{-1001, 0}] != 1 || u.Fired() != 1 {
		t.Fatalf("digests %v (the refused hold: %d); want one at the new id", got, u.Fired())
	}
}
