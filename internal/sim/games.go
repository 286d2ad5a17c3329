package sim

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// storedGame is the part of a guessing game's stored state the life
// reads: wordle's and loldle's games share these fields.
type storedGame struct {
	ID      int64    `json:"id"`
	Answer  string   `json:"answer"`
	Guesses []string `json:"guesses"`
	Over    bool     `json:"over"`
	Won     bool     `json:"won"`
}

// gamesModel counts the games of one game module (its namespace) that
// ended in each chat, seen as the game itself changes in the store: a
// running game that is over after a step, or replaced while it had
// guesses (abandoned, a loss).
type gamesModel struct {
	ns          string
	played, won map[int64]int
}

func newGamesModel(ns string) *gamesModel {
	return &gamesModel{ns: ns, played: map[int64]int{}, won: map[int64]int{}}
}

// gameModels are the games the life plays: wordle, loldle.
func (l *life) gameModels() []*gamesModel { return []*gamesModel{l.games, l.lol} }

// game is chat's game in m's module, read past the processes' faults.
func (l *life) game(m *gamesModel, chat int64) *storedGame {
	var g storedGame
	if err := l.cfg.Store.For(m.ns).GetJSON(context.Background(), games.GameKey(chat), &g); err != nil {
		return nil
	}
	return &g
}

// wordle is a wordle command in c. A guess is right when the seed says to
// win (the life reads the answer from the store, as a player who knew it
// would type it), else a word that is not the answer; the history holds
// only which.
func (l *life) wordle(c *chat, user int64) command {
	before := l.game(l.games, c.id)
	cmd := command{exp: expReply, random: true}
	switch x := l.r.IntN(20); {
	case x < 14:
		cmd = guess(l.r, 6, "wordle", l.words, before)
		l.mayType(c, before, &cmd)
	case x < 16:
		cmd.text, cmd.cmd = "/wordle_new", "wordle_new"
	case x < 18:
		cmd.text, cmd.cmd = "/wordle_giveup", "wordle_giveup"
	default:
		cmd.text, cmd.cmd = "/wordle_stats", "wordle_stats"
	}
	return l.played(l.games, c, before, cmd)
}

// guess is a guess at before: its answer when the seed says to win (one
// time in odds), else a word of words that is not it. It draws the same
// numbers whatever the answer is: the seed alone decides the life.
func guess(r *rand.Rand, odds int, game string, words []string, before *storedGame) command {
	win := r.IntN(odds) == 0 && before != nil && !before.Over
	i := r.IntN(len(words))
	word := words[i]
	switch {
	case win:
		word = before.Answer
	case before != nil && word == before.Answer:
		word = words[(i+1)%len(words)]
	}
	return command{text: "/" + game + " " + word, what: fmt.Sprintf("/%s <right=%t>", game, win), cmd: game, exp: expReply, random: true}
}

// played finishes a command of m's game in c, whose game was before: the
// history names it by its text unless it names a guess ("/<game> <right=..>"),
// and its answer moves the game's model.
func (l *life) played(m *gamesModel, c *chat, before *storedGame, cmd command) command {
	if cmd.what == "" {
		cmd.what = cmd.text
	}
	guess := strings.HasPrefix(cmd.what, "/"+m.ns+" <") || strings.HasPrefix(cmd.what, typedGuess)
	cmd.after = func(_ int64, calls []Call) {
		if guess && l.replayedGuess(m, c.id, before, calls) {
			return
		}
		l.gameMoved(m, c.id, before, false)
	}
	return cmd
}

// replayedGuess catches ReplayedGuess: a guess that ended the game, whose
// reply Telegram refused, run again on redelivery, starting a new game with
// it. The game it ended is counted here, for a life that lists the bug as
// known.
func (l *life) replayedGuess(m *gamesModel, chat int64, before *storedGame, calls []Call) bool {
	after := l.game(m, chat)
	if before == nil || before.Over || after == nil || after.ID == before.ID {
		return false
	}
	l.ended(m, chat, len(after.Guesses) == 1 && after.Guesses[0] == before.Answer)
	l.fail(ReplayedGuess, "%s in chat %d: the guess that ended game %d started a new one when Telegram delivered it again (%d calls)", m.ns, chat, before.ID, len(calls))
	return true
}

// gameMoved counts a game that ended between before and now, by a
// command or a press.
func (l *life) gameMoved(m *gamesModel, chat int64, before *storedGame, press bool) {
	defer func(n int) {
		if m.played[chat] > n {
			l.mayLoseGame(m.ns, chat, press)
		}
	}(m.played[chat])
	after := l.game(m, chat)
	if after != nil && after.Over && (before == nil || after.ID != before.ID) {
		// A new game that ended at once: its first guess was its word, or
		// its only try (loldle's owner may allow one).
		l.ended(m, chat, after.Won)
		l.hist.note("  %s over at the first guess in %d, won=%t", m.ns, chat, after.Won)
	}
	if before == nil || before.Over {
		return
	}
	switch {
	case after != nil && after.ID == before.ID && after.Over:
		l.ended(m, chat, after.Won)
		l.hist.note("  %s over in %d, won=%t", m.ns, chat, after.Won)
	case (after == nil || after.ID != before.ID) && len(before.Guesses) > 0:
		l.ended(m, chat, false) // abandoned for a new game: a loss
		l.hist.note("  %s abandoned in %d", m.ns, chat)
	}
}

// ended counts a game of m that ended in chat.
func (l *life) ended(m *gamesModel, chat int64, won bool) {
	m.played[chat]++
	l.hist.count(m.ns+"-games", 1)
	if won {
		m.won[chat]++
		l.hist.count(m.ns+"-won", 1)
	}
}

// gameOfButton is the game whose button carries data, or nil.
func (l *life) gameOfButton(data string) *gamesModel {
	for _, m := range l.gameModels() {
		if strings.HasPrefix(data, m.ns+":") {
			return m
		}
	}
	return nil
}

// checkGames: every chat's record of each game counts exactly the games
// that ended.
func (l *life) checkGames() {
	for _, m := range l.gameModels() {
		store := l.cfg.Store.For(m.ns)
		for chat, played := range m.played {
			rec, _, err := games.Load(context.Background(), store, chat)
			if err != nil {
				l.fail("games", "%s in chat %d: %v", m.ns, chat, err)
			}
			if (rec.Played != played || rec.Won != m.won[chat]) && !l.shortGames(m, chat, rec.Played, rec.Won) {
				l.fail("games", "%s in chat %d: the record says played %d, won %d; the games that ended: %d, %d won", m.ns, chat, rec.Played, rec.Won, played, m.won[chat])
			}
		}
	}
}

// wordleWords are the answers wordle draws from: every one is a valid guess.
func wordleWords(t testing.TB) []string {
	return dataLines(t, "../modules/wordle/data/answers.txt", func(line string) (string, bool) {
		w := strings.TrimSpace(line)
		return w, len(w) == 5
	})
}

// dataLines reads a module's data file, keeping what keep takes of each
// line.
func dataLines(t testing.TB, path string, keep func(line string) (string, bool)) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for s := bufio.NewScanner(f); s.Scan(); {
		if w, ok := keep(s.Text()); ok {
			out = append(out, w)
		}
	}
	return out
}
