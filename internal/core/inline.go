package core

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// inlineBudget is how long the modules have to answer an inline query:
// Telegram refuses an answer some ten seconds after the user typed, and
// the update's delivery and the answer's own call come out of that.
const inlineBudget = 5 * time.Second

// inlineRunAgain is the log line of an inline query run again after a run
// that answered it, or may have (its end unrecorded): Telegram refuses a
// second answer, and the query is gone by then.
const inlineRunAgain = "inline query not answered again: an earlier run had it"

// minInlineCache is the shortest cache time sent: Telegram reads a
// missing cache_time (0 is sent as none) as 300 seconds.
const minInlineCache = time.Second

// planInline routes an inline query to every module Inline whose Match
// takes it and answers it once with what they gather. The answer is
// recorded like a button press's (the action's press), and the query runs
// once (oneShot): a run of the same update again, after a crash between
// the answer and its record, answers no more. Telegram refuses a second
// answer, and one given that late.
func (a *App) planInline(u *models.Update, rd app.Words) *action {
	q := u.InlineQuery
	sender := app.UserActor(q.From) // an inline query always comes from a user
	req := &app.InlineRequest{
		Query: strings.TrimSpace(q.Query), Sender: sender, UserID: sender.ID,
		ChatType: q.ChatType, Role: a.roleOf(sender.ID), Update: u.ID, Words: rd,
	}
	once := &answerOnce{queryID: q.ID}
	act := &action{module: storage.CoreNamespace, name: "inline", press: once, oneShot: true}
	act.run = func(ctx context.Context) error {
		if once.answered() {
			a.log.Info(inlineRunAgain, "update_id", u.ID)
			return nil
		}
		ans := a.gatherInline(ctx, req)
		ans.QueryID = q.ID
		if err := a.bot.AnswerInline(ctx, ans); err != nil {
			// Not retried: by the time a redelivery runs, the query is
			// gone and Telegram refuses its answer.
			a.log.Warn("inline query not answered", "update_id", u.ID, "results", len(ans.Results), "err", err)
			act.failed = true
			return nil
		}
		once.markAnswered()
		return nil
	}
	return act
}

// inlineRoute is one module Inline that takes a query.
type inlineRoute struct {
	module *app.Module
	in     app.Inline
}

// inlineFor lists the Inlines whose Match takes query, in MODULES order.
func (a *App) inlineFor(query string) []inlineRoute {
	var out []inlineRoute
	for _, m := range a.reg.modules {
		for _, in := range m.Inline {
			if a.matches(m, in, query) {
				out = append(out, inlineRoute{module: m, in: in})
			}
		}
	}
	return out
}

// matches is in.Match(query); a Match that panics takes nothing (logged),
// and the other modules still answer.
func (a *App) matches(m *app.Module, in app.Inline, query string) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("inline match panicked", "module", m.Name, "panic", fmt.Sprint(r))
			ok = false
		}
	}()
	return in.Match(query)
}

// gatherInline asks the matching Inlines at once and waits for them
// within gatherBudget: a late or failed one is left out, logged. The
// answer keeps their order, at most app.MaxInlineResults results, each id
// unique and within app.MaxInlineResultID bytes; it is personal when any
// matching Inline is, and cached for the shortest of their times.
func (a *App) gatherInline(ctx context.Context, req *app.InlineRequest) app.InlineAnswer {
	routes := a.inlineFor(req.Query)
	ans := app.InlineAnswer{CacheTime: app.DefaultInlineCache}
	type answered struct {
		i       int
		results []app.InlineResult
		err     error
	}
	gctx, cancel := context.WithTimeout(ctx, gatherBudget(ctx))
	defer cancel()
	got := make(chan answered, len(routes))
	for i, r := range routes {
		ans.Personal = ans.Personal || r.in.Personal
		ans.CacheTime = min(ans.CacheTime, cacheOf(r.in))
		go func() {
			var results []app.InlineResult
			mreq := *req // each module speaks its own words
			mreq.Words = a.rewords(r.module.Name, req.Words)
			err := a.safely(gctx, r.module.Name, "inline", "", 0, 0, func() (err error) {
				results, err = r.in.Handler(gctx, &mreq)
				return err
			})
			got <- answered{i: i, results: results, err: err}
		}()
	}
	byRoute := make([][]app.InlineResult, len(routes))
	for range routes {
		select {
		case g := <-got:
			if g.err != nil {
				if !errors.Is(g.err, errPanicked) {
					a.log.Warn("inline handler failed; its results left out", "module", routes[g.i].module.Name, "update_id", req.Update, "err", g.err)
				}
				ans.CacheTime = minInlineCache // asked again soon, it may answer
				continue
			}
			byRoute[g.i] = g.results
		case <-gctx.Done():
			a.log.Warn("inline handlers too slow; answering without them", "update_id", req.Update)
			ans.CacheTime = minInlineCache
		}
		if gctx.Err() != nil {
			break
		}
	}
	ans.Results = inlineResults(routes, byRoute)
	return ans
}

// gatherBudget is how long the modules may take: inlineBudget, or half
// of what the update has left when that is less, so that the answer
// itself always has time to be sent.
func gatherBudget(ctx context.Context) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return min(inlineBudget, time.Until(dl)/2)
	}
	return inlineBudget
}

// cacheOf is an Inline's cache time, within what the answer may carry.
func cacheOf(in app.Inline) time.Duration {
	if in.CacheTime <= 0 {
		return app.DefaultInlineCache
	}
	return max(in.CacheTime, minInlineCache)
}

// inlineResults joins the routes' results under ids unique across
// modules ("coin/BTC"), each within Telegram's 64 bytes (a long or
// repeated id becomes its position, "r7"), dropping results with no text
// (Telegram refuses an empty message) and any past the 50th.
func inlineResults(routes []inlineRoute, byRoute [][]app.InlineResult) []app.InlineResult {
	var out []app.InlineResult
	seen := map[string]bool{}
	for i, results := range byRoute {
		for _, r := range results {
			if len(out) == app.MaxInlineResults {
				return out
			}
			if strings.TrimSpace(r.Text) == "" {
				continue
			}
			id := routes[i].module.Name + "/" + r.ID
			if r.ID == "" || len(id) > app.MaxInlineResultID || seen[id] {
				id = fmt.Sprintf("r%d", len(out))
			}
			seen[id] = true
			r.ID = id
			out = append(out, r)
		}
	}
	return out
}

// inlineHelp are m's inline queries as /help lists them.
func (r *Registry) inlineHelp(m *app.Module, lang app.Lang) []string {
	var lines []string
	for _, in := range m.Inline {
		help := in.Help
		if key := m.Name + "." + in.HelpKey; in.HelpKey != "" && r.catalog != nil && r.catalog.Has(lang, key) {
			help = r.catalog.Text(lang, key, nil)
		}
		if help != "" {
			lines = append(lines, "<i>inline</i> "+html.EscapeString(help))
		}
	}
	return lines
}

// checkInline refuses an Inline that could not run.
func checkInline(m *app.Module) []error {
	var errs []error
	for i, in := range m.Inline {
		if in.Match == nil || in.Handler == nil {
			errs = append(errs, fmt.Errorf("module %q inline %d: needs Match and Handler", m.Name, i))
		}
	}
	return errs
}
