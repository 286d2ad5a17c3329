package sim

import (
	"math/rand/v2"
	"slices"
)

// kind is what a chat is to Telegram.
type kind int

const (
	private kind = iota // a user's chat with the bot: its id is the user's
	group               // a basic group, which may become a supergroup
	forum               // a supergroup with topics
)

// chat is one chat of the life as Telegram knows it (the truth the
// checkers compare the bot's store with).
type chat struct {
	id      int64
	kind    kind
	super   bool    // a supergroup (a forum, or a group after its upgrade)
	members []int64 // who talks there
	topics  []int   // forum topics (0 is General); [0] elsewhere
	closed  map[int]bool
	gone    bool // the bot is blocked (private) or out of the group
}

// reachable says whether a send to topic of c can land.
func (c *chat) reachable(topic int) bool { return !c.gone && !c.closed[topic] }

// world is the population: users, and the chats they share with the bot.
type world struct {
	owner int64
	users []int64
	chats []*chat
	super int64 // the next supergroup id handed to an upgrade
}

// Sizes of a life's population: about fifty chats.
const (
	nUsers  = 30
	nGroups = 14
	nForums = 6
)

func newWorld(r *rand.Rand) *world {
	w := &world{owner: 1, super: -1001000000000}
	w.users = append(w.users, w.owner)
	for i := range nUsers {
		w.users = append(w.users, 1001+int64(i))
	}
	for _, u := range w.users {
		w.chats = append(w.chats, &chat{id: u, kind: private, members: []int64{u}, topics: []int{0}})
	}
	for i := range nGroups + nForums {
		c := &chat{id: -1000 - int64(i), kind: group, topics: []int{0}}
		if i >= nGroups {
			c.kind, c.super, c.topics = forum, true, []int{0, 11, 12}
			w.super--
			c.id = w.super
		}
		n := 2 + r.IntN(6)
		for len(c.members) < n {
			if u := w.users[r.IntN(len(w.users))]; !slices.Contains(c.members, u) {
				c.members = append(c.members, u)
			}
		}
		w.chats = append(w.chats, c)
	}
	return w
}

// upgradeID is the id of the supergroup a basic group becomes.
func (w *world) upgradeID() int64 { w.super--; return w.super }

// pick chooses a chat where someone can talk now, and a topic of it.
func (w *world) pick(r *rand.Rand) (*chat, int, bool) {
	for range 20 {
		c := w.chats[r.IntN(len(w.chats))]
		if c.gone {
			continue
		}
		t := c.topics[r.IntN(len(c.topics))]
		if c.closed[t] {
			continue
		}
		return c, t, true
	}
	return nil, 0, false
}

// byID is the chat with id now, or nil.
func (w *world) byID(id int64) *chat {
	for _, c := range w.chats {
		if c.id == id {
			return c
		}
	}
	return nil
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
