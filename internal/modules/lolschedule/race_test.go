package lolschedule_test

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/lolschedule"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
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
