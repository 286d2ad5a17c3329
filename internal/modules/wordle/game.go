package wordle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
)

const maxGuesses = 6

// game is one Wordle, stored per subject (the chat in groups, the user in
// private chats) so it survives restarts and moves with the data.
type game struct {
	Answer  string   `json:"answer"`
	Guesses []string `json:"guesses"`
	Over    bool     `json:"over"`
	Won     bool     `json:"won"`
}

// stats are the subject's results.
type stats struct {
	Played, Won, Streak, MaxStreak int
	Dist                           [maxGuesses]int // wins by number of guesses
}

func gameKey(subject int64) string  { return fmt.Sprintf("game:%d", subject) }
func statsKey(subject int64) string { return fmt.Sprintf("stats:%d", subject) }

var errRetries = errors.New("wordle: the game kept changing; try again")

// update applies f to the subject's game under CAS: two guesses sent at
// once both land, each exactly once, whatever the runtime. f sees the
// current game (nil when there is none) and returns the new one, or nil to
// leave the store as it is.
func (m *module) update(ctx context.Context, subject int64, f func(g *game) (*game, error)) error {
	key := gameKey(subject)
	for range 16 {
		cur, err := m.store.Get(ctx, key)
		var g *game
		switch {
		case errors.Is(err, storage.ErrNotFound):
			cur = nil
		case err != nil:
			return err
		default:
			g = &game{}
			if err := json.Unmarshal(cur, g); err != nil {
				return fmt.Errorf("wordle: stored game: %w", err)
			}
		}
		next, err := f(g)
		if err != nil || next == nil {
			return err
		}
		data, _ := json.Marshal(next)
		err = m.store.CompareAndSwap(ctx, key, cur, data)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		return err
	}
	return errRetries
}

// record adds a finished game to the subject's stats (CAS, like the game).
func (m *module) record(ctx context.Context, subject int64, won bool, tries int) error {
	key := statsKey(subject)
	for range 16 {
		cur, err := m.store.Get(ctx, key)
		var s stats
		switch {
		case errors.Is(err, storage.ErrNotFound):
			cur = nil
		case err != nil:
			return err
		default:
			if err := json.Unmarshal(cur, &s); err != nil {
				return fmt.Errorf("wordle: stored stats: %w", err)
			}
		}
		s.Played++
		if won {
			s.Won++
			s.Streak++
			s.MaxStreak = max(s.MaxStreak, s.Streak)
			s.Dist[tries-1]++
		} else {
			s.Streak = 0
		}
		data, _ := json.Marshal(s)
		err = m.store.CompareAndSwap(ctx, key, cur, data)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return errRetries
}

// board renders the guesses so far, with the keyboard of used letters.
func (g *game) board() string {
	var b strings.Builder
	for _, guess := range g.Guesses {
		marks := score(guess, g.Answer)
		b.WriteString(string(marks[:]) + "  " + strings.ToUpper(guess) + "\n")
	}
	fmt.Fprintf(&b, "%d/%d", len(g.Guesses), maxGuesses)
	if kb := g.keyboard(); kb != "" {
		b.WriteString("\n" + kb)
	}
	return b.String()
}

// keyboard lists the letters guessed so far by what they revealed.
func (g *game) keyboard() string {
	best := map[byte]rune{}
	rank := map[rune]int{absent: 1, present: 2, correct: 3}
	for _, guess := range g.Guesses {
		marks := score(guess, g.Answer)
		for i := range 5 {
			if rank[marks[i]] > rank[best[guess[i]]] {
				best[guess[i]] = marks[i]
			}
		}
	}
	var lines []string
	for _, mark := range []rune{correct, present, absent} {
		var letters []string
		for c := byte('a'); c <= 'z'; c++ {
			if best[c] == mark {
				letters = append(letters, strings.ToUpper(string(c)))
			}
		}
		if len(letters) > 0 {
			lines = append(lines, string(mark)+" "+strings.Join(letters, " "))
		}
	}
	return strings.Join(lines, "\n")
}
