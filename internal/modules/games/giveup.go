package games

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/app"
)

// GiveUpCommand is /<Command>_giveup: it ends the chat's running game,
// counts it and shows GaveUp's text with the new-game button.
func (p *Play[G, P]) GiveUpCommand(description string) app.Command {
	return app.Command{Name: p.Command + "_giveup", Description: description, Handler: p.giveUp}
}

func (p *Play[G, P]) giveUp(ctx context.Context, r *app.Request) error {
	ran := false // this run gave up, or replays the run that did
	g, reply, err := Move[G, P](ctx, p.Store, r, func(g *G) (*G, string, error) {
		ran = true
		if g == nil || *p.Over(g) {
			return nil, "", nil
		}
		*p.Over(g) = true
		return g, p.GaveUp(r.Words, g), nil
	})
	switch {
	case err != nil:
		return err
	case reply == "":
		_, err := r.Reply(ctx, r.T("games.none_running", app.Args{"Game": r.T("game"), "Command": p.Command}))
		return err
	}
	if ran || p.ID(g) != 0 { // a game with no id could not say it was counted
		if err := p.Finish(ctx, r.ChatID, g); err != nil {
			return err
		}
	}
	_, err = r.ReplyKeyboard(ctx, reply, p.Finished(r.Words, g))
	return err
}

// confirmed gives up game id, confirmed. Its count is the press's work
// too: one that fails leaves the press unfinished (app.Unfinished), and
// its run again, finding the game over, counts it then (Finish counts a
// game once); so does any press on the game over, harmlessly.
func (p *Play[G, P]) confirmed(ctx context.Context, req *app.CallbackRequest, subject, id int64) error {
	g, err := GiveUpIf(ctx, p.Store, subject, func(g *G) bool { return p.ID(g) == id }, p.Over)
	if err != nil {
		// The game may be over (the write landed unheard) and uncounted:
		// the run again finds it so and counts it.
		return app.Unfinished(err)
	}
	if g == nil {
		if g, err = Current[G](ctx, p.Store, subject); err != nil {
			return app.Unfinished(err)
		}
		if g != nil && p.ID(g) == id && *p.Over(g) {
			// This prompt's game is over: count it (a give-up whose write
			// landed unheard ran before) and show its end, not the prompt.
			if err := p.Finish(ctx, subject, g); err != nil {
				return app.Unfinished(err)
			}
			// A double tap: the board shows it already (not modified, no
			// error), and the toast says the press is stale. A run again
			// was answered already: the toast is not sent twice.
			if err := req.Edit(ctx, p.GaveUp(req.Words, g), p.Finished(req.Words, g)); err != nil {
				return err
			}
		}
		return req.Answer(ctx, req.T("games.stale"))
	}
	if err := p.Finish(ctx, subject, g); err != nil {
		// The board keeps the prompt (no new-game button that would let a
		// new game replace this one before its count lands): the run
		// again finds this game over, counts it and shows its end.
		return app.Unfinished(err)
	}
	return req.Edit(ctx, p.GaveUp(req.Words, g), p.Finished(req.Words, g))
}
