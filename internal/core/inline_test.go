package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// inlineModule answers the inline queries match takes with results.
func inlineModule(name string, in ...app.Inline) app.Factory {
	return app.Factory{Name: name, New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: name, Inline: in}, nil
	}}
}

func results(n int, id func(i int) string) func(context.Context, *app.InlineRequest) ([]app.InlineResult, error) {
	return func(_ context.Context, q *app.InlineRequest) ([]app.InlineResult, error) {
		var out []app.InlineResult
		for i := range n {
			out = append(out, app.InlineResult{ID: id(i), Title: fmt.Sprint("result ", i), Text: fmt.Sprintf("%s for %d", q.Query, q.UserID)})
		}
		return out, nil
	}
}

func anyQuery(string) bool { return true }

func answersOf(t *testing.T, b *apptest.Bot) []telegramtest.InlineAnswer {
	t.Helper()
	if n := len(b.Srv.Calls("answerInlineQuery")); n != len(b.Srv.InlineAnswers()) {
		t.Fatalf("%d answerInlineQuery calls, %d taken: the fake refused one", n, len(b.Srv.InlineAnswers()))
	}
	return b.Srv.InlineAnswers()
}

func TestAnInlineQueryIsAnsweredOnceWithEveryMatchingModulesResults(t *testing.T) {
	b := apptest.New(t, []app.Factory{
		inlineModule("alpha", app.Inline{Match: func(q string) bool { return q == "btc" }, Handler: results(1, func(int) string { return "1" }), CacheTime: 30 * time.Second}),
		inlineModule("beta", app.Inline{Match: anyQuery, Handler: results(1, func(int) string { return "1" }), CacheTime: 10 * time.Second}),
		inlineModule("gamma", app.Inline{Match: func(q string) bool { return q == "" }, Handler: results(1, func(int) string { return "x" })}),
	})
	u := b.Srv.InlineQuery(user, "  btc ", "supergroup")
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if err := b.Handle(u); err != nil { // delivered again
		t.Fatal(err)
	}
	ans := answersOf(t, b)
	if len(ans) != 1 {
		t.Fatalf("answered %d times, want once", len(ans))
	}
	a := ans[0]
	var ids []string
	for _, r := range a.Results {
		ids = append(ids, r.ID)
		if r.Text != fmt.Sprintf("btc for %d", user) {
			t.Errorf("result %s says %q: the handler saw another query or speaker", r.ID, r.Text)
		}
	}
	if got := strings.Join(ids, " "); got != "alpha/1 beta/1" {
		t.Errorf("results %q, want alpha's and beta's under ids unique across modules", got)
	}
	if a.CacheTime != 10 || a.IsPersonal {
		t.Errorf("cache_time %d personal %v, want the shortest (10) and not personal", a.CacheTime, a.IsPersonal)
	}
}

func TestAnInlineAnswerStaysWithinTelegramsLimits(t *testing.T) {
	long := strings.Repeat("x", 65)
	b := apptest.New(t, []app.Factory{
		inlineModule("many", app.Inline{Match: anyQuery, Handler: results(60, func(i int) string {
			switch i {
			case 0:
				return long
			case 1, 2:
				return "same"
			}
			return fmt.Sprint(i)
		})}),
	})
	if err := b.Handle(b.Srv.InlineQuery(user, "anything", "sender")); err != nil {
		t.Fatal(err)
	}
	ans := answersOf(t, b)
	if len(ans) != 1 {
		t.Fatalf("answered %d times, want once (the fake refuses what Telegram refuses)", len(ans))
	}
	if n := len(ans[0].Results); n != app.MaxInlineResults {
		t.Errorf("%d results, want the first %d", n, app.MaxInlineResults)
	}
}

func TestAnInlineQueryNothingTakesIsAnsweredEmpty(t *testing.T) {
	b := apptest.New(t, []app.Factory{
		inlineModule("alpha", app.Inline{Match: func(q string) bool { return q == "btc" }, Handler: results(1, func(int) string { return "1" })}),
	})
	if err := b.Handle(b.Srv.InlineQuery(user, "nothing here", "private")); err != nil {
		t.Fatal(err)
	}
	ans := answersOf(t, b)
	if len(ans) != 1 || len(ans[0].Results) != 0 {
		t.Fatalf("answers %+v, want one, empty", ans)
	}
	if ans[0].CacheTime < 1 {
		t.Errorf("cache_time %d: none sent is Telegram's 300 s", ans[0].CacheTime)
	}
}

func TestAPersonalInlineAnswerIsMarkedPersonal(t *testing.T) {
	b := apptest.New(t, []app.Factory{
		inlineModule("mine", app.Inline{Match: anyQuery, Personal: true, Handler: results(1, func(int) string { return "me" })}),
	})
	if err := b.Handle(b.Srv.InlineQuery(user, "", "sender")); err != nil {
		t.Fatal(err)
	}
	if ans := answersOf(t, b); len(ans) != 1 || !ans[0].IsPersonal {
		t.Fatalf("answers %+v, want one, is_personal", ans)
	}
}

func TestAFailingOrPanickingInlineHandlerLeavesTheOthersAnswered(t *testing.T) {
	b := apptest.New(t, []app.Factory{
		inlineModule("broken", app.Inline{Match: anyQuery, Handler: func(context.Context, *app.InlineRequest) ([]app.InlineResult, error) {
			return nil, errors.New("price source down")
		}}),
		inlineModule("panics", app.Inline{Match: anyQuery, Handler: func(context.Context, *app.InlineRequest) ([]app.InlineResult, error) {
			panic("boom")
		}}),
		inlineModule("badmatch", app.Inline{Match: func(string) bool { panic("match") }, Handler: results(1, func(int) string { return "no" })}),
		inlineModule("fine", app.Inline{Match: anyQuery, Handler: results(1, func(int) string { return "ok" })}),
	})
	if err := b.Handle(b.Srv.InlineQuery(user, "q", "sender")); err != nil {
		t.Fatal(err)
	}
	ans := answersOf(t, b)
	if len(ans) != 1 || len(ans[0].Results) != 1 || ans[0].Results[0].ID != "fine/ok" {
		t.Fatalf("answers %+v, want fine's result alone", ans)
	}
	if ans[0].CacheTime > 1 {
		t.Errorf("cache_time %d: an answer missing a failed module's results is not kept", ans[0].CacheTime)
	}
}

// An inline query whose run answered but did not record its end (a crash,
// the store gone) is run again after the stale mark: it answers no more.
func TestAnInlineQueryRunAgainAfterItsAnswerIsNotAnsweredTwice(t *testing.T) {
	clock := apptest.NewClock(apptest.T0)
	var b *apptest.Bot
	b = apptest.New(t, []app.Factory{
		inlineModule("crashy", app.Inline{Match: anyQuery, Handler: func(ctx context.Context, q *app.InlineRequest) ([]app.InlineResult, error) {
			b.Store.SetDown(true) // the answer goes; its record does not land
			return results(1, func(int) string { return "1" })(ctx, q)
		}}),
	}, core.WithClock(clock.Now))
	u := b.Srv.InlineQuery(user, "q", "sender")
	if err := b.Handle(u); err == nil {
		t.Fatal("the run's record landed with the store down")
	}
	b.Store.SetDown(false)
	clock.Add(time.Hour) // past the stale mark: the claim is taken over
	if err := b.Handle(u); err != nil {
		t.Fatal(err)
	}
	if n := len(b.Srv.Calls("answerInlineQuery")); n != 1 {
		t.Fatalf("answerInlineQuery called %d times, want once", n)
	}
}

func TestTheEngineRefusesAnInlineWithoutMatchOrHandler(t *testing.T) {
	_, err := core.New(memory.New(), nil, core.WithModules([]app.Factory{inlineModule("bad", app.Inline{Match: anyQuery})}))
	if err == nil || !strings.Contains(err.Error(), "needs Match and Handler") {
		t.Fatalf("err %v, want the Inline refused", err)
	}
}

func TestHelpListsAModulesInlineQueriesUnderItsCommands(t *testing.T) {
	withCmd := func(name string, in ...app.Inline) app.Factory {
		return app.Factory{Name: name, New: func(app.Deps) (*app.Module, error) {
			return &app.Module{Name: name, Inline: in, Commands: []app.Command{{Name: name + "_price", Description: "A price", Handler: func(context.Context, *app.Request) error { return nil }}}}, nil
		}}
	}
	b := apptest.New(t, []app.Factory{
		withCmd("coinish", app.Inline{Match: anyQuery, Handler: results(0, nil), Help: "BTC (any coin) - its price card"}),
		withCmd("plain"),
	})
	text := b.App.Registry().HelpText(app.RoleUser, app.English)
	if !strings.Contains(text, "/coinish_price - A price\n<i>inline</i> BTC (any coin) - its price card\n") || !strings.Contains(text, "type my @username") {
		t.Fatalf("help:\n%s", text)
	}
	page, _ := b.App.Registry().HelpPage(app.RoleUser, "coinish", app.English)
	if !strings.Contains(page, "<i>inline</i> BTC (any coin) - its price card") {
		t.Fatalf("the module's page:\n%s", page)
	}
	if page, _ := b.App.Registry().HelpPage(app.RoleUser, "plain", app.English); strings.Contains(page, "inline") {
		t.Fatalf("a module without inline queries:\n%s", page)
	}
}

// The recorded inline queries, as the webhook and the poller decode them,
// reach the modules with their speaker and are answered once.
func TestARecordedInlineQueryIsAnsweredAsItsSpeaker(t *testing.T) {
	var got []string
	b := apptest.New(t, []app.Factory{
		inlineModule("who", app.Inline{Match: anyQuery, Handler: func(_ context.Context, q *app.InlineRequest) ([]app.InlineResult, error) {
			got = append(got, fmt.Sprintf("%d %s %q %s", q.UserID, q.Sender.Username, q.Query, q.ChatType))
			return nil, nil
		}}),
	})
	for _, name := range []string{"update_inline_query_empty.json", "update_inline_query_group.json"} {
		u, ignored, err := telegram.DecodeUpdate(telegramtest.Recorded(t, name))
		if err != nil || len(ignored) > 0 {
			t.Fatalf("%s: %v, ignored %v", name, err, ignored)
		}
		if err := b.Handle(b.Srv.AskInline(u)); err != nil {
			t.Fatal(err)
		}
	}
	if want := `12345 user "" |12345 user "btc" supergroup`; strings.Join(got, "|") != want {
		t.Fatalf("the handler heard %q, want %q", strings.Join(got, "|"), want)
	}
	if n := len(answersOf(t, b)); n != 2 {
		t.Fatalf("%d answers, want one each", n)
	}
}

// A handler still working when the modules' time is up is left out: the
// query is answered with the others' results in time, and the answer is
// kept briefly (the late module may answer next time).
func TestASlowInlineHandlerIsLeftOutAndTheQueryAnsweredInTime(t *testing.T) {
	b := apptest.New(t, []app.Factory{
		inlineModule("slow", app.Inline{Match: anyQuery, Handler: func(ctx context.Context, _ *app.InlineRequest) ([]app.InlineResult, error) {
			<-ctx.Done() // a source that never answers
			return []app.InlineResult{{ID: "late", Title: "late", Text: "late"}}, nil
		}}),
		inlineModule("fast", app.Inline{Match: anyQuery, Handler: results(1, func(int) string { return "1" })}),
	}, core.WithUpdateBudget(time.Second)) // the modules get half of it
	if err := b.Handle(b.Srv.InlineQuery(user, "q", "sender")); err != nil {
		t.Fatal(err)
	}
	ans := answersOf(t, b)
	if len(ans) != 1 || len(ans[0].Results) != 1 || ans[0].Results[0].ID != "fast/1" || ans[0].CacheTime != 1 {
		t.Fatalf("answers %+v, want fast's result alone, cached a second", ans)
	}
}
