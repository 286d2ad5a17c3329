package sim

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// appOdds is how often, in a hundred steps, a user opens the Mini App.
const appOdds = 4

// miniApp is the life's use of the Mini App: its own stream of the seed,
// so a life draws the same users' steps as it did before the app was
// opened in it, and whether the forged initData was tried yet.
type miniApp struct {
	r      *rand.Rand
	forged bool
}

// maybeMiniApp: now and then a user with a portfolio opens the app, from
// their private chat or a group they are in, on the runtime of the
// stretch. The first call of a life also presents a forged initData.
func (l *life) maybeMiniApp() {
	if l.miniApp.r == nil {
		l.miniApp.r = rand.New(rand.NewPCG(l.cfg.Seed, 0x6d696e69617070)) // "miniapp"
	}
	p := l.live[l.rt]
	if p == nil || p.dead.Load() {
		return // the next update starts the runtime again
	}
	if !l.miniApp.forged {
		l.miniApp.forged = true
		l.openForged(p)
	}
	if l.miniApp.r.IntN(100) >= appOdds {
		return
	}
	users := l.portfolioUsers()
	if len(users) == 0 {
		return
	}
	user := users[l.miniApp.r.IntN(len(users))]
	var from *chat
	if groups := l.groupsOf(user); len(groups) > 0 && l.miniApp.r.IntN(2) == 0 {
		from = groups[l.miniApp.r.IntN(len(groups))]
	}
	down := l.miniApp.r.IntN(5) == 0 // the store is out while the app asks
	l.openApp(p, user, from, down)
}

// portfolioUsers are the users (not the chats speaking as themselves) the
// bot confirmed a top-up of, in any market, in order.
func (l *life) portfolioUsers() []int64 {
	var users []int64
	for b, a := range l.money.accounts {
		if !a.invested.IsZero() && b.user > 0 && !slices.Contains(users, b.user) { // a chat opens no Mini App
			users = append(users, b.user)
		}
	}
	slices.Sort(users)
	return users
}

// groupsOf are the groups user is a member of that still have the bot.
func (l *life) groupsOf(user int64) []*chat {
	var out []*chat
	for _, c := range l.world.chats {
		if c.kind != private && !c.gone && slices.Contains(c.members, user) {
			out = append(out, c)
		}
	}
	return out
}

// openApp is user's page asking for their portfolios (and, opened from a
// group, one market's board of it), the answers checked against the
// money model.
func (l *life) openApp(p *proc, user int64, from *chat, down bool) {
	auth := l.initData(p, user)
	l.store.SetDown(down)
	code, body := p.appGet("/app/api/me", auth)
	l.store.SetDown(false)
	where := int64(0)
	if from != nil {
		where = from.id
	}
	l.hist.line("  mini app user %d from %d down=%t: me %d", user, where, down, code)
	l.hist.count("miniapp-opens", 1)
	if !l.appStatus("me", user, code, down) {
		return
	}
	me, problems := readMe(body, user, l.money)
	for _, pr := range problems {
		l.fail("miniapp", "user %d's /app/api/me: %s", user, pr)
	}
	if from != nil {
		l.openBoard(p, auth, user, from, me, down)
	}
}

// openBoard asks for the board of a market of the group the app was
// opened from: only a user with a portfolio there may see one.
func (l *life) openBoard(p *proc, auth string, user int64, from *chat, me map[string]bool, down bool) {
	ns := []string{"coin", "gold", "stock"}[l.miniApp.r.IntN(3)]
	l.store.SetDown(down)
	code, body := p.appGet("/app/api/"+ns+"/board?chat="+strconv.FormatInt(from.id, 10), auth)
	l.store.SetDown(false)
	l.hist.line("  mini app user %d board %s of %d: %d", user, ns, from.id, code)
	if code == http.StatusForbidden {
		l.hist.count("miniapp-board-forbidden", 1)
		return
	}
	if !l.appStatus("board", user, code, down) {
		return
	}
	if !me[ns] {
		l.fail("miniapp", "user %d, who has no %s portfolio, was shown %d's board", user, ns, from.id)
	}
	if pr := checkBoard(body, from.id); pr != "" {
		l.fail("miniapp", "user %d's %s board of %d: %s", user, ns, from.id, pr)
	}
	l.hist.count("miniapp-boards", 1)
}

// appStatus says whether an answer is a 200 to check. An outage may make
// any answer an error, never a refusal of the user; without one, every
// answer is a 200.
func (l *life) appStatus(route string, user int64, code int, down bool) bool {
	switch {
	case code == http.StatusOK:
		return true
	case down && code >= 500:
		l.hist.count("miniapp-outage-errors", 1)
	default:
		l.fail("miniapp", "user %d's %s answered %d (store down: %t)", user, route, code, down)
	}
	return false
}

// openForged presents the owner's initData with its hash altered: the
// app refuses it with a 401 and nothing else.
func (l *life) openForged(p *proc) {
	auth := l.initData(p, l.world.owner)
	i := strings.Index(auth, "hash=") + len("hash=")
	flip := byte('0')
	if auth[i] == '0' {
		flip = '1'
	}
	forged := auth[:i] + string(flip) + auth[i+1:]
	code, body := p.appGet("/app/api/me", forged)
	l.hist.line("  mini app forged initData: %d", code)
	l.hist.count("miniapp-forged", 1)
	if code != http.StatusUnauthorized || body != "" {
		l.fail("miniapp", "a forged initData was answered %d %q", code, body)
	}
}

// initData is what Telegram hands user's page: the console's signed test
// link's, which the bot signs with its token at its clock's now.
func (l *life) initData(p *proc, user int64) string {
	link, err := url.Parse(p.appLink("https://sim.example", user, "User"))
	if err != nil {
		l.t.Fatal(err)
	}
	data, ok := strings.CutPrefix(link.Fragment, "tgWebAppData=")
	if !ok {
		l.t.Fatalf("sim: the test link %q carries no tgWebAppData", link)
	}
	return data
}

// appGet is the page's GET of path with its initData.
func (p *proc) appGet(path, initData string) (int, string) {
	return p.serve(http.MethodGet, path, map[string]string{"Authorization": "tma " + initData})
}
