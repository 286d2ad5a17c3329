package lolschedule_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/lolschedule"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"golang.org/x/time/rate"
)

// Two runtimes subscribe and unsubscribe at once over one store: every
// change lands, none is lost.
func TestSubscriptionRacesOnTheRealBackends(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		srv := telegramtest.New(t)
		runtimes := make([]*core.App, 2)
		for i := range runtimes {
			client, _ := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL), telegram.WithRates(1e6, 1e6))
			a, err := core.New(p, client, core.WithModules([]app.Factory{lolschedule.Factory}), core.WithBotUsername("miti99bot"))
			if err != nil {
				t.Fatal(err)
			}
			runtimes[i] = a
		}
		deliver := func(a *core.App, chat int64, text string) {
			u := telegramtest.Text(chat, 1, text)
			u.ID = chat*10 + int64(len(text)) + int64(slices.Index(runtimes, a))*1_000_000
			if err := a.HandleUpdate(context.Background(), u); err != nil {
				t.Error(err)
			}
		}
		// Chats -1..-10 start subscribed and unsubscribe; -11..-30 subscribe
		// from both runtimes at once.
		for chat := int64(-1); chat >= -10; chat-- {
			deliver(runtimes[0], chat, "/lolschedule_subscribe")
		}
		var wg sync.WaitGroup
		for chat := int64(-1); chat >= -30; chat-- {
			for _, a := range runtimes {
				wg.Go(func() {
					if chat >= -10 {
						deliver(a, chat, "/lolschedule_unsubscribe")
					} else {
						deliver(a, chat, "/lolschedule_subscribe")
					}
				})
			}
		}
		wg.Wait()
		keys, err := p.For("lolschedule").List(context.Background(), "sub:")
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for chat := int64(-11); chat >= -30; chat-- {
			want = append(want, "sub:"+itoa(chat)+":0")
		}
		slices.Sort(want)
		if !slices.Equal(keys, want) {
			t.Fatalf("subscribers after the race:\n%v\nwant:\n%v", keys, want)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Pushes of one day race from two runtimes after a send failed (its
// timer "failed", to be tried again): on every backend each chat gets one
// digest, the failed one included.
func TestRacingPushesSendEachChatOneDigestOnEveryBackend(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			// The take of a failed timer is a value-matched swap: on
			// FerretDB racing ticks may send it again (#28, open).
			t.Skip(backendtest.FerretDBLimit)
		}
		api := newFakeAPI(t)
		seed(api)
		e := newEnvOnStore(t, p, api, nil, []telegram.Option{telegram.WithRates(rate.Inf, rate.Inf)})
		e.clk.Set(slot.Add(3 * time.Second))
		other, err := core.New(p, e.Client, core.WithModules([]app.Factory{lolschedule.Factory}), core.WithClock(e.clk.Now),
			core.WithSettings(map[string]string{"LOLESPORTS_API_URL": api.URL(), "LOLESPORTS_API_KEY": apiKey}))
		if err != nil {
			t.Fatal(err)
		}
		var subs [][2]int64
		for i := range int64(4) {
			subs = append(subs, [2]int64{-(1000 + i), 0})
		}
		e.subscribe(t, subs...)
		push := func(a *core.App) error {
			job, ok := a.Registry().CronByName(pushJob)
			if !ok {
				t.Fatalf("no job %s", pushJob)
			}
			if err := job.Handler(t.Context(), app.CronRun{Slot: slot}); err != nil {
				return err
			}
			st, err := a.Timers().Tick(t.Context())
			if err == nil && st.Waits > 0 {
				err = fmt.Errorf("%d sends failed", st.Waits)
			}
			return err
		}
		e.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
		if err := push(e.App); err == nil {
			t.Fatal("the first push must report the failed send")
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 8 {
			a := e.App
			if i%2 == 1 {
				a = other
			}
			wg.Go(func() {
				<-start
				_ = push(a)
			})
		}
		close(start)
		wg.Wait()
		// The refused send is recorded too: its chat has two.
		refused := [2]int64{e.Srv.Messages()[0].ChatID, 0}
		got := e.digests()
		for _, s := range subs {
			if want := map[bool]int{true: 2, false: 1}[s == refused]; got[s] != want {
				t.Fatalf("digests %v, want one for each of %v and the refused one for %v", got, subs, refused)
			}
		}
	})
}
