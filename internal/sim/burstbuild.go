package sim

import (
	"fmt"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// burstFault is a Bot API answer gone wrong in a burst: on getUpdates, or
// on a chat's k-th sendMessage.
type burstFault struct {
	kind int
	k    int
}

// The faults of a burst: Telegram's answers as the fake gives them.
const (
	bfServer   = iota // 500
	bfGateway         // 502
	bfFlood           // 429 retry_after 3: waited out by the client
	bfRecorded        // the recorded 429, retry_after 34: past the client's budget
	bfSlow            // a slow answer that lands
	nBurstFaults
)

var burstFaultNames = [nBurstFaults]string{"500", "502", "429", "429-recorded", "slow"}

func (f burstFault) String() string { return burstFaultNames[f.kind] }

// slowAnswer is how late a slow answer comes: well inside the client's
// wait, so it lands whatever the machine's pace (only the order of the
// others' calls around it changes, which nothing depends on).
const slowAnswer = 20 * time.Millisecond

func (f burstFault) failure(l *life) telegramtest.Failure {
	switch f.kind {
	case bfServer:
		return telegramtest.Failure{Code: 500, Description: "Internal Server Error"}
	case bfGateway:
		return telegramtest.Failure{Code: 502, Description: "Bad Gateway"}
	case bfFlood:
		return telegramtest.Failure{Code: 429, Description: "Too Many Requests: retry after 3", RetryAfter: 3}
	case bfRecorded:
		return telegramtest.RecordedFailure(l.t, "answer_flood.json")
	}
	return telegramtest.Failure{Delay: slowAnswer}
}

// newBurst draws a burst from the bursts' own stream: its chats (each
// with a sender of its own), their updates interleaved, the slow chat's
// first, the heavy chat's backlog and the faults.
func (l *life) newBurst() *burst {
	r := l.rb
	b := &burst{l: l, byID: map[int64]*burstUpdate{}, chats: map[int64][]*burstUpdate{}, sends: map[int64]burstFault{},
		sent: map[int64]int{}, parks: map[int64]bool{}, landed: map[int64]bool{},
		released: make(chan struct{}), settled: make(chan struct{}), problems: make(chan string, 1)}
	used := map[int64]bool{}
	type pick struct {
		c      *chat
		thread int
		user   int64
		n      int
	}
	var picks []pick
	want := 4 + r.IntN(16)
	for _, i := range r.Perm(len(l.world.chats)) {
		c := l.world.chats[i]
		if len(picks) == want || c.gone {
			continue
		}
		t := c.topics[r.IntN(len(c.topics))]
		u := c.members[r.IntN(len(c.members))]
		if c.closed[t] || used[u] {
			continue
		}
		used[u] = true
		picks = append(picks, pick{c, t, u, 1 + r.IntN(4)})
	}
	if len(picks) < 2 {
		return b // too few chats reachable: an empty burst
	}
	b.slow = picks[0].c.id
	if r.IntN(2) == 0 {
		picks[1].n = heavyMin + r.IntN(20)
		b.heavy = picks[1].c.id
	}
	// The slow chat's first update goes first: its held reply keeps the
	// offset there until the poller parks it.
	var seq []int
	for i, p := range picks {
		for range p.n {
			seq = append(seq, i)
		}
	}
	rest := seq[1:]
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	now := l.clk.Now()
	for _, i := range seq {
		p := picks[i]
		cmd := burstCommand(r, p.c)
		u := l.ids.text(now, p.c, p.thread, p.user, cmd.text)
		d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", p.c.id, p.thread, p.user, cmd.what), exp: cmd.exp,
			chat: p.c, thread: p.thread, user: p.user, cmd: cmd.cmd}
		bu := &burstUpdate{d: d}
		b.byID[u.ID] = bu
		b.chats[p.c.id] = append(b.chats[p.c.id], bu)
		if p.c.id != b.slow {
			b.others++
		}
	}
	b.left = len(b.byID)
	for c := range b.chats {
		b.order = append(b.order, c)
	}
	slices.Sort(b.order)
	for range r.IntN(3) {
		b.polls = append(b.polls, burstFault{kind: r.IntN(nBurstFaults)})
	}
	for range r.IntN(3) {
		p := picks[r.IntN(len(picks))]
		b.sends[p.c.id] = burstFault{kind: r.IntN(nBurstFaults), k: 1 + r.IntN(min(p.n, 3))}
	}
	return b
}

// burstCommand is what a burst's sender says: nothing whose effect
// another chat's order could change.
func burstCommand(r interface{ IntN(int) int }, c *chat) command {
	switch x := r.IntN(10); {
	case x < 4:
		return command{text: "/help", what: "/help", exp: expReply, cmd: "help"}
	case x < 6:
		return command{text: "/start", what: "/start", exp: expReply, cmd: "start"}
	case c.kind == private: // a group hears an unknown command in silence
		return command{text: "/nosuchcommand", what: "/nosuchcommand", exp: expReply}
	case x < 8:
		return command{text: "/weather@otherbot", what: "/weather@otherbot", exp: expSilent}
	}
	return command{text: "hello all", what: "hello all", exp: expSilent}
}
