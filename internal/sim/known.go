package sim

// UncountedEnd names a game its end never counted: a move that ended it
// whose write landed unheard (a timeout, or its process killed before the
// record), run again on redelivery.
const UncountedEnd = "uncounted-end"

// LostCount names a command answered while the store went down under it
// whose stats hook then failed: the update must stay unacknowledged, so
// that its redelivery counts it once.
const LostCount = "lost-count"

// LostGameResult names a game a press ended (give up) whose record write
// then failed: the press must run again and count the game once.
const LostGameResult = "lost-game-result"

// lateOutage notes a delivery whose store went down in the middle of its
// run: what a hook or a record after the run writes may be lost, and the
// models allow for it only while the bugs above are known (Config.Known);
// otherwise a short count names the bug and fails the life.
type lateOutage struct {
	counts map[int64]map[string]int // user -> command -> counts that may be lost
	games  map[gameOf]int           // a chat's game -> results that may be lost
}

// gameOf is a game module's (namespace's) game in a chat.
type gameOf struct {
	ns   string
	chat int64
}

func newLateOutage() *lateOutage {
	return &lateOutage{counts: map[int64]map[string]int{}, games: map[gameOf]int{}}
}

// outageHit says whether the delivery under way met an outage mid-update.
func (l *life) outageHit() bool {
	return l.lastFault != nil && l.lastFault.kind == outageFrom && l.lastFault.didFire()
}

// mayLoseCount: the command d counts may be lost to the outage.
func (l *life) mayLoseCount(d *delivery) {
	if !l.outageHit() {
		return
	}
	if l.late.counts[d.user] == nil {
		l.late.counts[d.user] = map[string]int{}
	}
	l.late.counts[d.user][d.cmd]++
}

// mayLoseGame: a game of ns that ended in chat during the delivery may go
// uncounted: the store went down under it, or a press's store call failed
// (a press is answered, not retried, whatever its handler returned).
func (l *life) mayLoseGame(ns string, chat int64, press bool) {
	if f := l.lastFault; l.outageHit() || press && f != nil && f.kind == timeout && f.didFire() {
		l.late.games[gameOf{ns, chat}]++
	}
}

// shortCount reports whether a tally short of the model is the known lost
// count, and takes the stored one as the truth from here.
func (l *life) shortCount(user int64, cmd string, got int64) bool {
	want := l.stats.sent[user][cmd]
	if got >= want || want-got > int64(l.late.counts[user][cmd]) {
		return false
	}
	l.fail(LostCount, "user %d: /%s counted %d times, handled %d (a count lost in an outage)", user, cmd, got, want)
	l.stats.sent[user][cmd] = got
	l.late.counts[user][cmd] -= int(want - got)
	return true
}

// shortGames is the same for a chat's record of m's game.
func (l *life) shortGames(m *gamesModel, chat int64, played, won int) bool {
	want, at := m.played[chat], gameOf{m.ns, chat}
	if played >= want || want-played > l.late.games[at] {
		return false
	}
	l.fail(LostGameResult, "%s in chat %d: %d games counted, %d ended (a result lost to a failed store call)", m.ns, chat, played, want)
	l.late.games[at] -= want - played
	m.played[chat], m.won[chat] = played, won
	return true
}
