package lolschedule_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/httpapi"
)

// The digests' first lines: the slot's day (Wed 25/11) and the next (Thu 26/11).
const (
	slotDay = "<b>LoL today, Wed 25/11/2026 (ICT)</b>"
	nextDay = "<b>LoL today, Thu 26/11/2026 (ICT)</b>"
)

// heads are the first lines of the digests sent since mark, per chat.
func (e *env) heads(mark int) map[int64][]string {
	got := map[int64][]string{}
	for _, m := range e.Srv.Messages()[mark:] {
		if strings.HasPrefix(m.Text, "<b>LoL today") {
			got[m.ChatID] = append(got[m.ChatID], strings.SplitN(m.Text, "\n", 2)[0])
		}
	}
	return got
}

// A daily slot does its own day's push whoever runs it and whenever: late
// (after midnight of the next day in Vietnam), caught up by a scheduler
// that starts after it, or by hand through the cron route botctl posts
// to. The next day's slot then pushes the next day, to every subscriber.
func TestADailySlotPushesItsOwnDayOnTimeLateCaughtUpOrByHand(t *testing.T) {
	tests := []struct {
		name string
		at   time.Time // the clock when the slot runs
		run  func(t *testing.T, e *env, d *cron.Dispatcher)
	}{
		{"late, after midnight in Vietnam", slot.Add(22*time.Hour + 51*time.Minute), func(t *testing.T, e *env, d *cron.Dispatcher) {
			if _, err := e.pushDay(t.Context(), d, slot); err != nil {
				t.Fatal(err)
			}
		}},
		{"caught up by a scheduler starting late", slot.Add(5*time.Hour + 59*time.Minute), func(t *testing.T, e *env, d *cron.Dispatcher) {
			ctx, stop := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- cron.NewScheduler(d, cron.WithSchedulerClock(e.clk.Now)).Run(ctx) }()
			ticked := make(chan struct{})
			go func() { // the timers engine, ticking until the sends came
				defer close(ticked)
				for ctx.Err() == nil {
					_, _ = e.App.Timers().Tick(ctx)
				}
			}()
			if _, err := e.Srv.WaitCalls(t.Context(), "sendMessage", 2); err != nil {
				t.Fatal(err)
			}
			stop()
			<-ticked
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}},
		{"by hand through the cron route, after midnight in Vietnam", slot.Add(22*time.Hour + 51*time.Minute), func(t *testing.T, e *env, d *cron.Dispatcher) {
			srv := httptest.NewServer(httpapi.NewHandler(httpapi.Config{Dispatcher: d, CronSecret: "s3cret", Now: e.clk.Now, Log: e.Log}))
			defer srv.Close()
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/cron/"+pushJob+"?scheduled="+slot.Format(time.RFC3339), nil)
			req.Header.Set("X-Cron-Token", "s3cret")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("the route answered %d", resp.StatusCode)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			d := e.Dispatcher(e.clk.Now)
			e.subscribe(t, [2]int64{-1, 0}, [2]int64{-2, 7})
			e.clk.Set(tt.at)
			tt.run(t, e, d)
			if _, err := e.App.Timers().Tick(t.Context()); err != nil { // what the run set
				t.Fatal(err)
			}
			want := map[int64][]string{-1: {slotDay}, -2: {slotDay}}
			if got := e.heads(0); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("the slot of 25/11 sent %v, want %v", got, want)
			}
			mark := len(e.Srv.Messages())
			next := slot.AddDate(0, 0, 1)
			e.clk.Set(next.Add(3 * time.Second))
			if _, err := e.pushDay(t.Context(), d, next); err != nil {
				t.Fatal(err)
			}
			want = map[int64][]string{-1: {nextDay}, -2: {nextDay}}
			if got := e.heads(mark); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("the next day's slot sent %v, want %v", got, want)
			}
		})
	}
}

// A slot of an earlier day run by hand after the next day's push keeps
// that push's marks: a retry of the next day sends nothing again.
func TestAnEarlierDaysSlotKeepsTheLaterDaysMarks(t *testing.T) {
	e := newEnv(t, nil)
	d := e.Dispatcher(e.clk.Now)
	e.subscribe(t, [2]int64{-1, 0})
	next := slot.AddDate(0, 0, 1)
	e.clk.Set(next.Add(3 * time.Second))
	for _, at := range []time.Time{next, slot.Add(5 * time.Minute), next.Add(time.Minute)} {
		if _, err := e.pushDay(t.Context(), d, at); err != nil {
			t.Fatal(err)
		}
	}
	want := map[int64][]string{-1: {nextDay, slotDay}}
	if got := e.heads(0); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sent %v, want %v: the next day once, then the earlier slot's day", got, want)
	}
}
