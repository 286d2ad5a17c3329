package games_test

import (
	"strconv"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

type tally struct {
	Moves int `json:"moves"`
	games.LastMove
}

// command is a command of update id (0: a request built without its
// update) in chat 1.
func command(id int64) *app.Request {
	r := app.Request{ChatID: 1}
	if id != 0 {
		r.Update = &models.Update{ID: id}
	}
	return app.NewRequest(nil, r)
}

// count is a move that adds one, and replies with the count.
func count(runs *int) func(*tally) (*tally, string, error) {
	return func(cur *tally) (*tally, string, error) {
		*runs++
		next := tally{}
		if cur != nil {
			next = *cur
		}
		next.Moves++
		return &next, "moves: " + strconv.Itoa(next.Moves), nil
	}
}

func TestAMoveIsMadeOncePerUpdateAndItsRedeliveryGetsTheSameReply(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	runs := 0
	for _, step := range []struct {
		update int64
		reply  string
		runs   int // f's runs so far
	}{
		{101, "moves: 1", 1},
		{101, "moves: 1", 1}, // delivered again: the same reply, no second move
		{102, "moves: 2", 2},
		{102, "moves: 2", 2},
		{101, "moves: 1", 2}, // an earlier move is remembered too
		{0, "moves: 3", 3},   // a request without its update: a move each time
	} {
		g, reply, err := games.Move(ctx, s, command(step.update), count(&runs))
		if err != nil {
			t.Fatal(err)
		}
		if reply != step.reply || runs != step.runs || g == nil || g.Moves != step.runs {
			t.Fatalf("update %d: reply %q after %d runs, game %+v; want %q after %d", step.update, reply, runs, g, step.reply, step.runs)
		}
	}
}

func TestAMoveThatChangesNothingIsNotRemembered(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	look := func(*tally) (*tally, string, error) { return nil, "nothing to see", nil }
	if g, reply, err := games.Move(ctx, s, command(5), look); g != nil || reply != "nothing to see" || err != nil {
		t.Fatalf("a look without a game = %+v, %q, %v", g, reply, err)
	}
	runs := 0
	if _, reply, _ := games.Move(ctx, s, command(5), count(&runs)); reply != "moves: 1" || runs != 1 {
		t.Fatalf("the same update, a move this time: %q after %d runs; want it made", reply, runs)
	}
}

func TestARequestWithoutItsUpdateIsMadeEveryTime(t *testing.T) {
	s := memory.New().For("g")
	runs := 0
	for range 2 {
		if _, _, err := games.Move(t.Context(), s, command(0), count(&runs)); err != nil {
			t.Fatal(err)
		}
	}
	if g, _ := games.Current[tally](t.Context(), s, 1); runs != 2 || g.Moves != 2 || len(g.Applied) != 0 {
		t.Fatalf("%d runs, game %+v; want two moves, none remembered", runs, g)
	}
}

// A move whose write lands but whose caller hears a failure (a store call
// that timed out after writing, a process killed after it) is run again:
// the game it ended is still reported, so that it is counted (simulation
// seed 1, the game record one short).
func TestAMoveRunAgainStillSaysWhichGameItEnded(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	end := func(cur *tally) (*tally, string, error) {
		next := tally{Moves: 1}
		next.End(games.Ended{Game: 9, Won: true, Tries: 1})
		return &next, "won", nil
	}
	for _, run := range []string{"first", "again"} {
		g, _, err := games.Move(ctx, s, command(301), end)
		if err != nil {
			t.Fatal(err)
		}
		if e := games.EndedBy(g); e == nil || e.Game != 9 || !e.Won {
			t.Fatalf("%s run: ended %+v", run, e)
		}
	}
	g, _, err := games.Move(ctx, s, command(302), func(cur *tally) (*tally, string, error) {
		next := *cur
		next.Moves++
		return &next, "on", nil
	})
	if err != nil || games.EndedBy(g) != nil {
		t.Fatalf("the next move ended nothing: %+v, %v", games.EndedBy(g), err)
	}
}

// A new game keeps what the game it replaced remembered: the move that
// ended the old one, told again after the new one has moves of its own,
// answers what it earned and says which game it ended, not the new one's.
func TestAnEarlierMoveToldAgainAfterANewGameEarnsWhatItDid(t *testing.T) {
	s := memory.New().For("g")
	ctx := t.Context()
	fresh := func(cur *tally) (*tally, string, error) {
		next := tally{}
		if cur != nil {
			next.End(games.Ended{Game: int64(cur.Moves)})
		}
		return &next, "new game", nil
	}
	runs := 0
	steps := []struct {
		update int64
		move   func(*tally) (*tally, string, error)
		reply  string
		ended  *games.Ended
	}{
		{1, count(&runs), "moves: 1", nil},
		{2, fresh, "new game", &games.Ended{Game: 1}},
		{3, count(&runs), "moves: 1", nil},
		{2, fresh, "new game", &games.Ended{Game: 1}}, // told again: not a third game
		{1, count(&runs), "moves: 1", nil},
	}
	for i, step := range steps {
		g, reply, err := games.Move(ctx, s, command(step.update), step.move)
		if err != nil {
			t.Fatal(err)
		}
		e := games.EndedBy(g)
		if reply != step.reply || (e == nil) != (step.ended == nil) || e != nil && *e != *step.ended {
			t.Fatalf("step %d (update %d): reply %q, ended %+v; want %q, %+v", i, step.update, reply, e, step.reply, step.ended)
		}
	}
	if g, _ := games.Current[tally](ctx, s, 1); g.Moves != 1 || runs != 2 {
		t.Fatalf("game %+v after %d counted moves; want the new game's one move", g, runs)
	}
}
