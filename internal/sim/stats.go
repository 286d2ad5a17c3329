package sim

import (
	"context"
	"fmt"
	"strconv"
)

// statsModel counts the commands each user sent that the bot handled:
// what /stats must count, once each, whatever Telegram redelivered.
type statsModel struct{ sent map[int64]map[string]int64 }

func newStatsModel() *statsModel { return &statsModel{sent: map[int64]map[string]int64{}} }

func (m *statsModel) add(user int64, cmd string) {
	if m.sent[user] == nil {
		m.sent[user] = map[string]int64{}
	}
	m.sent[user][cmd]++
}

// checkStats compares every user's stored tally with the commands sent.
func (l *life) checkStats() {
	store := l.cfg.Store.For("stats")
	for user, want := range l.stats.sent {
		var got struct {
			Cmds map[string]int64 `json:"cmds"`
		}
		if err := store.GetJSON(context.Background(), "u:"+strconv.FormatInt(user, 10), &got); err != nil {
			l.fail("stats", "user %d: %v", user, err)
		}
		for cmd, n := range want {
			if got.Cmds[cmd] != n && !l.shortCount(user, cmd, got.Cmds[cmd]) {
				l.fail("stats", "user %d: /%s counted %d times, sent and handled %d", user, cmd, got.Cmds[cmd], n)
			}
		}
		for cmd := range got.Cmds {
			if _, ok := want[cmd]; !ok {
				l.fail("stats", "user %d: counted %v, sent %v", user, got.Cmds, fmt.Sprint(want))
			}
		}
	}
}

// endOfDay runs the checkers that read the store.
func (l *life) endOfDay() {
	l.checkPortfolios()
	l.checkGames()
	l.checkStats()
}
