// Package games holds what the bot's guessing games share: each subject's
// (chat's) record of finished games, kept under "stats:<subject>" in the
// game module's own store.
package games

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Record is a subject's results. Its JSON shape is the one wordle has
// always stored, so existing records keep counting.
type Record struct {
	Played, Won, Streak, MaxStreak int
	Dist                           []int // wins by tries: Dist[0] were won at the first
	// The last games counted, by ID: a game's end may be seen more than
	// once (a move whose write landed unheard is run again), and counts
	// once (app.ApplyOnce).
	app.Once[struct{}]
}

// Key is where a subject's record lives.
func Key(subject int64) string { return "stats:" + strconv.FormatInt(subject, 10) }

// Ended is a game that ended: won, or lost (out of tries, given up, or
// abandoned for a new one). Game is its ID; 0 for a game without one,
// which is counted every time.
type Ended struct {
	Game  int64 `json:"game,omitempty"`
	Won   bool  `json:"won,omitempty"`
	Tries int   `json:"tries,omitempty"`
}

// Add counts one finished game under CAS, so two games finishing at once
// in one chat are both counted, and a game counted already is not again.
func Add(ctx context.Context, s storage.KVStore, subject int64, e Ended) error {
	_, err := app.ApplyOnce(ctx, s, Key(subject), e.Game, func(r *Record, _ bool) (struct{}, error) {
		r.Played++
		if !e.Won {
			r.Streak = 0
			return struct{}{}, nil
		}
		r.Won++
		r.Streak++
		r.MaxStreak = max(r.MaxStreak, r.Streak)
		if e.Tries > 0 {
			for len(r.Dist) < e.Tries {
				r.Dist = append(r.Dist, 0)
			}
			r.Dist[e.Tries-1]++
		}
		return struct{}{}, nil
	})
	return err
}

// Finish counts a game that just ended (nil: none did). An error is the
// handler's to return: the update is run again, its move is replayed
// (Move), the game it ended comes back with it (EndedBy) and is counted
// then, once.
func Finish(ctx context.Context, s storage.KVStore, subject int64, e *Ended) error {
	if e == nil {
		return nil
	}
	if err := Add(ctx, s, subject, *e); err != nil {
		return fmt.Errorf("game result not recorded: %w", err)
	}
	return nil
}

// Load reads a subject's record; found is false before its first game.
func Load(ctx context.Context, s storage.KVStore, subject int64) (r Record, found bool, err error) {
	err = s.GetJSON(ctx, Key(subject), &r)
	if errors.Is(err, storage.ErrNotFound) {
		return r, false, nil
	}
	return r, err == nil, err
}

// Summary is the record's first lines, in w's language (a game module's
// words, see Texts): games, wins and streaks.
func (r Record) Summary(w app.Words) string {
	return w.T("games.summary", app.Args{"Played": r.Played, "Won": r.Won, "Percent": 100 * r.Won / max(r.Played, 1), "Streak": r.Streak, "Best": r.MaxStreak})
}

// AverageTries is the mean number of tries of the games won (ok false
// before the first win).
func (r Record) AverageTries() (avg float64, ok bool) {
	wins, tries := 0, 0
	for i, n := range r.Dist {
		wins += n
		tries += (i + 1) * n
	}
	if wins == 0 {
		return 0, false
	}
	return float64(tries) / float64(wins), true
}
