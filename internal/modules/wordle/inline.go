package wordle

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// shared is a user's last finished game as `@bot wordle` shares it: the
// marks of each guess, never its letters, so it spoils nothing for those
// still playing. Kept under "shared:<user id>" by the guess that ended the
// game (in a group, the group's game, for whoever finished it).
type shared struct {
	Game  int64    `json:"game"`
	Day   string   `json:"day"` // UTC, 2006-01-02: shared that day only
	Rows  []string `json:"rows"`
	Won   bool     `json:"won"`
	Tries int      `json:"tries"`
}

func sharedKey(user int64) string { return "shared:" + strconv.FormatInt(user, 10) }

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// keepShared remembers the game g the guess of user ended. A redelivered
// guess writes the same record again.
func (m *module) keepShared(ctx context.Context, user int64, g *game) error {
	s := shared{Game: g.ID, Day: day(m.now()), Won: g.Won, Tries: len(g.Guesses)}
	for _, guess := range g.Guesses {
		marks := score(guess, g.Answer)
		s.Rows = append(s.Rows, string(marks[:]))
	}
	return m.store.PutJSON(ctx, sharedKey(user), s)
}

// inline offers the user's game finished today, personal.
func (m *module) inline() app.Inline {
	return app.Inline{
		Match:    func(q string) bool { return strings.EqualFold(q, Name) },
		Personal: true,
		Help:     "wordle - your game finished today, its grid without letters, to share",
		HelpKey:  "inline.wordle",
		Handler: func(ctx context.Context, r *app.InlineRequest) ([]app.InlineResult, error) {
			var s shared
			err := m.store.GetJSON(ctx, sharedKey(r.UserID), &s)
			switch {
			case errors.Is(err, storage.ErrNotFound):
				return nil, nil
			case err != nil:
				return nil, err
			case s.Day != day(m.now()):
				return nil, nil // yesterday's game is no game of the day
			}
			title := "Wordle " + s.score()
			return []app.InlineResult{{
				ID: strconv.FormatInt(s.Game, 10), Title: title, Description: r.T("share"),
				Text: title + "\n" + strings.Join(s.Rows, "\n"),
			}}, nil
		},
	}
}

// score is "4/6", or "X/6" for a game lost.
func (s shared) score() string {
	if !s.Won {
		return fmt.Sprintf("X/%d", maxGuesses)
	}
	return fmt.Sprintf("%d/%d", s.Tries, maxGuesses)
}
