package lolschedule_test

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/lolschedule"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

type env struct {
	*apptest.Bot
	api *fakeAPI
	clk *apptest.Clock
}

func newEnv(t *testing.T, settings map[string]string) *env {
	api := newFakeAPI(t)
	seed(api)
	return newEnvWith(t, api, settings)
}

func newEnvWith(t testing.TB, api *fakeAPI, settings map[string]string, opts ...telegramtest.Option) *env {
	return newEnvWithClient(t, api, settings, nil, opts...)
}

func newEnvWithClient(t testing.TB, api *fakeAPI, settings map[string]string, client []telegram.Option, opts ...telegramtest.Option) *env {
	return newEnvOnStore(t, memory.New(), api, settings, client, opts...)
}

func newEnvOnStore(t testing.TB, store storage.KVProvider, api *fakeAPI, settings map[string]string, client []telegram.Option, opts ...telegramtest.Option) *env {
	clk := apptest.NewClock(now)
	s := map[string]string{"LOLESPORTS_API_URL": api.URL(), "LOLESPORTS_API_KEY": apiKey}
	for k, v := range settings {
		s[k] = v
	}
	b := apptest.NewOnStore(t, store, telegramtest.New(t, opts...), client, []app.Factory{lolschedule.Factory}, core.WithClock(clk.Now), core.WithSettings(s))
	return &env{Bot: b, api: api, clk: clk}
}

func TestScheduleReplies(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"today, by ICT day, grouped by league, shows excluded", "/lolschedule_today", `<b>LoL matches, Wed 25/11/2026 (ICT)</b>

🏆 <b>LCK</b>
01:00  HLE vs KT · Bo3
15:00  <b>T1</b> 2-1 GEN (final) · Bo3

🏆 <b>LPL</b>
17:00  BLG vs JDG (live, 1-0) · Bo5`},
		{"no argument means today", "/lolschedule", `<b>LoL matches, Wed 25/11/2026 (ICT)</b>

🏆 <b>LCK</b>
01:00  HLE vs KT · Bo3
15:00  <b>T1</b> 2-1 GEN (final) · Bo3

🏆 <b>LPL</b>
17:00  BLG vs JDG (live, 1-0) · Bo5`},
		{"a match after 17:00 UTC belongs to the next day in Vietnam", "/lolschedule 26-11-2026", `<b>LoL matches, Thu 26/11/2026 (ICT)</b>

🏆 <b>LCK</b>
00:30  DK vs T1 · Bo3`},
		{"an older page is followed", "/lolschedule 23/11/2026", `<b>LoL matches, Mon 23/11/2026 (ICT)</b>

🏆 <b>LEC</b>
16:00  G2 1-2 <b>FNC</b> (final) · Bo3`},
		{"the compact date form", "/lolschedule 19112026", `<b>LoL matches, Thu 19/11/2026 (ICT)</b>

🏆 <b>LCK</b>
16:00  <b>DK</b> 2-0 KT (final) · Bo3`},
		{"a day without matches", "/lolschedule 01-01-2027", "No LoL esports matches on Fri 01/01/2027."},
		{"a malformed date", "/lolschedule tomorrow", `Invalid date "tomorrow": use a date like 25-12-2026, 25/12/2026 or 25122026.`},
		{"an impossible date", "/lolschedule 31-02-2026", `Invalid date "31-02-2026": 31-02-2026 is not a date.`},
		{"the week is Monday to Sunday, in Vietnam", "/lolschedule_week", `<b>LoL matches this week, 23/11 to 29/11/2026 (ICT)</b>

🏆 <b>LEC</b>
Mon 23/11 16:00  G2 1-2 <b>FNC</b> (final) · Bo3
Sun 29/11 23:00  G2 vs MKOI · Bo1

🏆 <b>LCK</b>
Tue 24/11 23:00  <b>KT</b> 2-1 BRO (final) · Bo3
Wed 25/11 01:00  HLE vs KT · Bo3
Wed 25/11 15:00  <b>T1</b> 2-1 GEN (final) · Bo3
Thu 26/11 00:30  DK vs T1 · Bo3

🏆 <b>LPL</b>
Wed 25/11 17:00  BLG vs JDG (live, 1-0) · Bo5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.Expect(apptest.Group, apptest.User, tt.text, tt.want)
		})
	}
}

func TestTheCacheServesFreshAndStaleCopies(t *testing.T) {
	e := newEnv(t, nil)
	e.MustSay(apptest.Group, apptest.User, "/lolschedule_today")
	first, calls := e.Last(), e.api.Calls()

	e.clk.Add(time.Minute)
	e.MustSay(apptest.Group, apptest.User, "/lolschedule_today")
	if e.api.Calls() != calls || e.Last() != first {
		t.Fatalf("a copy younger than 2 minutes must be served without calling the API (%d -> %d calls)", calls, e.api.Calls())
	}

	e.clk.Add(10 * time.Minute)
	e.api.Fail(-1)
	e.MustSay(apptest.Group, apptest.User, "/lolschedule_today")
	if e.Last() != first {
		t.Fatalf("with the API down, a copy younger than an hour must answer; got %q", e.Last())
	}
	if e.api.Calls() == calls {
		t.Fatal("a stale copy must not be served before trying the API")
	}

	e.clk.Add(time.Hour)
	e.Expect(apptest.Group, apptest.User, "/lolschedule_today", "The LoL esports schedule is unavailable right now. Please try again later.")

	e.api.Fail(0)
	e.MustSay(apptest.Group, apptest.User, "/lolschedule_today")
	if e.Last() != first {
		t.Fatalf("after recovery: %q", e.Last())
	}
}

func TestAWrongAPIKeyIsAClearReplyNotAFailure(t *testing.T) {
	e := newEnv(t, map[string]string{"LOLESPORTS_API_KEY": "wrong"})
	if err := e.Say(apptest.PrivateChat, apptest.User, "/lolschedule_today"); err != nil {
		t.Fatalf("an unusable source is answered, not retried: %v", err)
	}
	if !strings.Contains(e.Last(), "unavailable") {
		t.Fatalf("reply %q", e.Last())
	}
}

func TestSubscriptionsArePerChatAndTopic(t *testing.T) {
	e := newEnv(t, nil)
	say := func(thread int, text string) string {
		t.Helper()
		u := telegramtest.Text(apptest.Group, apptest.User, text)
		if thread != 0 {
			telegramtest.InTopic(u, thread)
		}
		if err := e.Handle(u); err != nil {
			t.Fatal(err)
		}
		return e.Last()
	}
	steps := []struct {
		thread     int
		text, want string
	}{
		{5, "/lolschedule_subscribe", "Subscribed: today's matches will arrive here every day at 08:00 (ICT)."},
		{5, "/lolschedule_subscribe", "Already subscribed: today's matches arrive here every day at 08:00 (ICT)."},
		{0, "/lolschedule_unsubscribe", "Not subscribed here."},
		{0, "/lolschedule_subscribe", "Subscribed: today's matches will arrive here every day at 08:00 (ICT)."},
		{5, "/lolschedule_unsubscribe", "Unsubscribed: no more daily matches here."},
		{5, "/lolschedule_unsubscribe", "Not subscribed here."},
	}
	for _, s := range steps {
		if got := say(s.thread, s.text); got != s.want {
			t.Fatalf("topic %d %s = %q, want %q", s.thread, s.text, got, s.want)
		}
	}
	if msgs := e.Srv.Messages(); msgs[0].ThreadID != 5 || msgs[3].ThreadID != 0 {
		t.Fatalf("replies must go to the topic they came from: %+v", msgs)
	}
}
