package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// loldle is a loldle command in c, beside wordle: a guess is right when
// the seed says to win (read from the store, as for wordle), else a
// champion that is not the answer, now and then a name no champion has
// (which uses no try) or none (the board); give-ups, stats, and the
// owner's attempts limit. Its draws are the markets' stream's.
func (l *life) loldle(c *chat, user int64, r *rand.Rand) command {
	before := l.game(l.lol, c.id)
	cmd := command{exp: expReply, random: true}
	switch x := r.IntN(40); {
	case x < 28:
		cmd = guess(r, 5, "loldle", l.champions, before)
	case x < 30:
		cmd.text, cmd.cmd = "/loldle Zzzyx", "loldle"
	case x < 32:
		cmd.text, cmd.cmd = "/loldle", "loldle"
	case x < 35:
		cmd.text, cmd.cmd = "/loldle_giveup", "loldle_giveup"
	case x < 37 && user == l.world.owner && c.kind == private:
		cmd.text, cmd.cmd = fmt.Sprintf("/loldle_setmax %d", 1+r.IntN(10)), "loldle_setmax"
	default:
		cmd.text, cmd.cmd = "/loldle_stats", "loldle_stats"
	}
	return l.played(l.lol, c, before, cmd)
}

// loldleChampions are the champions' names in loldle's table.
func loldleChampions(t testing.TB) []string {
	return dataLines(t, "../modules/loldle/data/champions.tsv", func(line string) (string, bool) {
		name, _, _ := strings.Cut(line, "\t")
		return name, name != "" && !strings.HasPrefix(line, "#")
	})
}
