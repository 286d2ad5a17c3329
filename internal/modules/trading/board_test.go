package trading

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// countingPrices prices every symbol from a table and counts each ask.
type countingPrices struct {
	mu     sync.Mutex
	prices map[string]string
	asked  map[string]int
}

func (c *countingPrices) price(sym string) (decimal.Decimal, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked[sym]++
	p, ok := c.prices[sym]
	if !ok {
		return decimal.Zero, false
	}
	return d(p), true
}

// boardNow is 2026-12-03 12:00 ICT: the change counts from the close of
// 2026-11-26.
var boardNow = time.Date(2026, 12, 3, 5, 0, 0, 0, time.UTC)

// seed writes user's portfolio (cash, holdings "SYM=qty@cost", the groups
// it traded in, listed or not) and its daily values ("day=cash+holdings/deposited").
func seed(t *testing.T, s storage.KVStore, user int64, cash, invested string, holdings []string, chats []int64, listed bool, days ...string) {
	t.Helper()
	p := Portfolio{Cash: d(cash), Invested: d(invested), Holdings: map[string]Holding{}, Chats: chats, Listed: listed, Name: fmt.Sprintf("u%d", user)}
	for _, h := range holdings {
		sym, rest, _ := strings.Cut(h, "=")
		qty, cost, _ := strings.Cut(rest, "@")
		p.Holdings[sym] = Holding{Qty: d(qty), Cost: d(cost)}
	}
	ctx := context.Background()
	if err := s.PutJSON(ctx, Key(user), p); err != nil {
		t.Fatal(err)
	}
	var pts []DayPoint
	for _, day := range days {
		dd, rest, _ := strings.Cut(day, "=")
		val, dep, _ := strings.Cut(rest, "/")
		pts = append(pts, DayPoint{Day: dd, Cash: d(val), Deposited: d(dep)})
	}
	if len(pts) > 0 {
		if err := s.PutJSON(ctx, valueKey(user), pts); err != nil {
			t.Fatal(err)
		}
	}
}

func summary(rows []Row) string {
	var out []string
	for _, r := range rows {
		line := fmt.Sprintf("%d=%s", r.User, r.Value)
		if r.HasChange {
			line += fmt.Sprintf(" %s(%s%%) since %s", r.Change, r.Pct.Round(2), r.Since)
		}
		out = append(out, line)
	}
	return strings.Join(out, "; ")
}

// A group's board holds who traded in that group, by value at current
// prices (a holding without a price at cost), its change over 7 days from
// the daily values with deposits left out; the opted-in board holds who
// opted in.
func TestTheBoardRanksByValueAndSevenDayChange(t *testing.T) {
	const group, other int64 = -100, -200
	s := memory.New().For("coin")
	seed(t, s, 1, "100", "1000", []string{"BTC=0.01@500"}, []int64{group}, false,
		"2026-11-25=900/1000", "2026-11-26=1000/1000", "2026-11-27=5/1000") // base: the 26th's close
	seed(t, s, 2, "2000", "2000", nil, []int64{group, other}, true,
		"2026-11-20=1/1", "2026-11-24=1000/1000") // a top-up since is no gain; the 24th is within the slack
	seed(t, s, 3, "50", "50", []string{"NOPRICE=1@70"}, []int64{group}, true) // no value old enough
	seed(t, s, 4, "999999", "999999", nil, []int64{other}, true)              // another group's
	seed(t, s, 5, "10", "10", nil, nil, false,
		"2026-11-01=10/10") // in no group; its only value too old for a change
	cp := &countingPrices{prices: map[string]string{"BTC": "60000"}, asked: map[string]int{}}
	tests := []struct {
		name  string
		scope int64
		sort  func([]Row)
		want  string
	}{
		{"the group by value", group, SortByValue, "2=2000 0(0%) since 2026-11-24; 1=700 -300(-30%) since 2026-11-26; 3=120"},
		{"the group by change", group, SortByChange, "2=2000 0(0%) since 2026-11-24; 1=700 -300(-30%) since 2026-11-26; 3=120"},
		{"another group", other, SortByValue, "4=999999; 2=2000 0(0%) since 2026-11-24"},
		{"the opted-in", Everyone, SortByValue, "4=999999; 2=2000 0(0%) since 2026-11-24; 3=120"},
		{"a group no one traded in", -300, SortByValue, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := Board(context.Background(), s, usd, cp.price, tt.scope, boardNow)
			if err != nil {
				t.Fatal(err)
			}
			tt.sort(rows)
			if got := summary(rows); got != tt.want {
				t.Fatalf("board\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// The change ranks by percent: a small portfolio's doubling beats a big
// one's few percent; a portfolio without a change comes last.
func TestTheBoardByChangeRanksByPercent(t *testing.T) {
	const group int64 = -100
	s := memory.New().For("coin")
	seed(t, s, 1, "1100", "1000", nil, []int64{group}, false, "2026-11-26=1000/1000") // +10%
	seed(t, s, 2, "20", "10", nil, []int64{group}, false, "2026-11-26=10/10")         // +100%
	seed(t, s, 3, "5000", "5000", nil, []int64{group}, false)                         // new
	seed(t, s, 4, "900", "1000", nil, []int64{group}, false, "2026-11-26=1000/1000")  // -10%
	rows, err := Board(context.Background(), s, usd, func(string) (decimal.Decimal, bool) { return decimal.Zero, false }, group, boardNow)
	if err != nil {
		t.Fatal(err)
	}
	SortByChange(rows)
	var order []int64
	for _, r := range rows {
		order = append(order, r.User)
	}
	if fmt.Sprint(order) != "[2 1 4 3]" {
		t.Fatalf("by change: %v; want [2 1 4 3]", order)
	}
}

// One board asks each symbol's price once, however many members hold it.
func TestTheBoardAsksEachSymbolOnce(t *testing.T) {
	const group int64 = -100
	s := memory.New().For("coin")
	for u := int64(1); u <= 30; u++ {
		seed(t, s, u, "1", "1", []string{"BTC=0.001@1", "ETH=0.1@1", fmt.Sprintf("X%d=1@1", u%3)}, []int64{group}, true)
	}
	cp := &countingPrices{prices: map[string]string{"BTC": "60000", "ETH": "3000", "X0": "1"}, asked: map[string]int{}}
	if _, err := Board(context.Background(), s, usd, cp.price, group, boardNow); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"BTC": 1, "ETH": 1, "X0": 1, "X1": 1, "X2": 1}
	if fmt.Sprint(cp.asked) != fmt.Sprint(want) {
		t.Fatalf("asked %v; want each symbol once: %v", cp.asked, want)
	}
}

// inChatBot answers ChatMember as told: a member when in, else not one.
type inChatBot struct {
	app.Messenger // nil: only ChatMember is used
	in            bool
	err           error
}

func (b inChatBot) ChatMember(context.Context, int64, int64) (app.Membership, error) {
	if b.in {
		return app.Member, b.err
	}
	return app.NotMember, b.err
}

// A group's board is its members' in the Mini App: who traded there and,
// asked at their look, is still in the group. One Telegram says left is
// off the board from then on; when Telegram cannot say, the record stands;
// a group gone for the bot is no one's board.
func TestTheMiniAppBoardIsForMembersStillInTheGroup(t *testing.T) {
	const group, user int64 = -100, 7
	tests := []struct {
		name       string
		bot        app.Messenger
		traded     bool
		member     bool
		staysOnTop bool
	}{
		{"no Bot: the record", nil, true, true, true},
		{"still in the group", inChatBot{in: true}, true, true, true},
		{"never traded there", inChatBot{in: true}, false, false, false},
		{"left, unheard", inChatBot{in: false}, true, false, false},
		{"Telegram cannot say", inChatBot{err: errors.New("telegram: getChatMember: 502 Bad Gateway")}, true, true, true},
		{"the group is gone for the bot", inChatBot{err: fmt.Errorf("telegram: getChatMember: %w", app.ErrChatGone)}, true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := memory.New().For("coin")
			var chats []int64
			if tt.traded {
				chats = []int64{-200, group}
			}
			seed(t, s, user, "100", "100", nil, chats, false)
			var logs bytes.Buffer
			d := &Desk{Kit: &Kit{Market: usd}, Quotes: &Quotes{Store: s, Log: slog.New(slog.NewJSONHandler(&logs, nil))}, Bot: tt.bot}
			member, err := d.BoardMember(context.Background(), group, user)
			if err != nil || member != tt.member {
				t.Fatalf("BoardMember = %t, %v; want %t", member, err, tt.member)
			}
			// A question Telegram could not answer is said, not swallowed.
			bot, _ := tt.bot.(inChatBot)
			if asked := tt.traded && bot.err != nil && !errors.Is(bot.err, app.ErrChatGone); asked != strings.Contains(logs.String(), "cannot say whether a member") {
				t.Errorf("logged %q; want a WARN only when Telegram could not say", logs.String())
			}
			p, _, err := Load(context.Background(), s, user)
			if err != nil {
				t.Fatal(err)
			}
			if p.inChat(group) != (tt.traded && tt.staysOnTop) || (tt.traded && !p.inChat(-200)) {
				t.Fatalf("the portfolio's groups are %v", p.Chats)
			}
		})
	}
}
