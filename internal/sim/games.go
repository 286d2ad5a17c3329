package sim

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// wordleGame is the part of wordle's stored game the life reads.
type wordleGame struct {
	ID      int64    `json:"id"`
	Answer  string   `json:"answer"`
	Guesses []string `json:"guesses"`
	Over    bool     `json:"over"`
	Won     bool     `json:"won"`
}

// gamesModel counts the games that ended in each chat, seen as the game
// itself changes in the store: a running game that is over after a step,
// or replaced while it had guesses (abandoned, a loss).
type gamesModel struct{ played, won map[int64]int }

func newGamesModel() *gamesModel { return &gamesModel{played: map[int64]int{}, won: map[int64]int{}} }

func (l *life) game(chat int64) *wordleGame {
	var g wordleGame
	if err := l.cfg.Store.For("wordle").GetJSON(context.Background(), games.GameKey(chat), &g); err != nil {
		return nil
	}
	return &g
}

// wordle is a wordle command in c. A guess is right when the seed says to
// win (the life reads the answer from the store, as a player who knew it
// would type it), else a word that is not the answer; the history holds
// only which.
func (l *life) wordle(c *chat, user int64) command {
	before := l.game(c.id)
	cmd := command{exp: expReply, random: true}
	switch x := l.r.IntN(20); {
	case x < 14:
		// Draw the same numbers whatever the answer is: the seed alone
		// decides the life.
		win := l.r.IntN(6) == 0 && before != nil && !before.Over
		i := l.r.IntN(len(l.words))
		word := l.words[i]
		switch {
		case win:
			word = before.Answer
		case before != nil && word == before.Answer:
			word = l.words[(i+1)%len(l.words)]
		}
		cmd.text, cmd.what, cmd.cmd = "/wordle "+word, fmt.Sprintf("/wordle <right=%t>", win), "wordle"
	case x < 16:
		cmd.text, cmd.cmd = "/wordle_new", "wordle_new"
	case x < 18:
		cmd.text, cmd.cmd = "/wordle_giveup", "wordle_giveup"
	default:
		cmd.text, cmd.cmd = "/wordle_stats", "wordle_stats"
	}
	if cmd.what == "" {
		cmd.what = cmd.text
	}
	guess := strings.HasPrefix(cmd.what, "/wordle <")
	cmd.after = func(calls []Call) {
		if guess && l.replayedGuess(c.id, before, calls) {
			return
		}
		l.gameMoved(c.id, before)
	}
	return cmd
}

// replayedGuess catches ReplayedGuess: a guess that ended the game, whose
// reply Telegram refused, run again on redelivery, starting a new game with
// it. The game it ended is counted here, for a life that lists the bug as
// known.
func (l *life) replayedGuess(chat int64, before *wordleGame, calls []Call) bool {
	after := l.game(chat)
	if before == nil || before.Over || after == nil || after.ID == before.ID {
		return false
	}
	l.games.played[chat]++
	if strings.Join(after.Guesses, "") == before.Answer {
		l.games.won[chat]++
	}
	l.fail(ReplayedGuess, "chat %d: the guess that ended game %d started a new one when Telegram delivered it again (%d calls)", chat, before.ID, len(calls))
	return true
}

// gameMoved counts a game that ended between before and now.
func (l *life) gameMoved(chat int64, before *wordleGame) {
	defer func(n int) {
		if l.games.played[chat] > n {
			l.mayLoseGame(chat)
		}
	}(l.games.played[chat])
	after := l.game(chat)
	if after != nil && after.Over && (before == nil || after.ID != before.ID) {
		// A new game that ended at once: its first guess was its word.
		l.games.played[chat]++
		l.games.won[chat]++
		l.hist.note("  game won at the first guess in %d", chat)
	}
	if before == nil || before.Over {
		return
	}
	switch {
	case after != nil && after.ID == before.ID && after.Over:
		l.games.played[chat]++
		if after.Won {
			l.games.won[chat]++
		}
		l.hist.note("  game over in %d, won=%t", chat, after.Won)
	case (after == nil || after.ID != before.ID) && len(before.Guesses) > 0:
		l.games.played[chat]++ // abandoned for a new game: a loss
		l.hist.note("  game abandoned in %d", chat)
	}
}

// checkGames: every chat's record counts exactly the games that ended.
func (l *life) checkGames() {
	store := l.cfg.Store.For("wordle")
	for chat, played := range l.games.played {
		rec, _, err := games.Load(context.Background(), store, chat)
		if err != nil {
			l.fail("games", "chat %d: %v", chat, err)
		}
		if (rec.Played != played || rec.Won != l.games.won[chat]) && !l.shortGames(chat, rec.Played, rec.Won) {
			l.fail("games", "chat %d's record says played %d, won %d; the games that ended: %d, %d won", chat, rec.Played, rec.Won, played, l.games.won[chat])
		}
	}
}

// wordleWords are the answers wordle draws from: every one is a valid guess.
func wordleWords(t testing.TB) []string {
	f, err := os.Open("../modules/wordle/data/answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for s := bufio.NewScanner(f); s.Scan(); {
		if w := strings.TrimSpace(s.Text()); len(w) == 5 {
			out = append(out, w)
		}
	}
	return out
}
