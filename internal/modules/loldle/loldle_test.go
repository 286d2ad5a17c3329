package loldle

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// fixed is the module with the given answers, in order.
func fixed(answers ...string) app.Factory {
	return app.Factory{Name: Name, New: func(d app.Deps) (*app.Module, error) {
		cs, err := parseChampions(championsTSV)
		if err != nil {
			return nil, err
		}
		var mu sync.Mutex
		var ids int64
		r := newRoster(cs)
		m := &module{store: d.Store, log: d.Log, roster: func() *roster { return r }, newID: func() int64 {
			mu.Lock()
			defer mu.Unlock()
			ids++
			return ids
		}}
		m.pick = func() string {
			mu.Lock()
			defer mu.Unlock()
			a := answers[0]
			if len(answers) > 1 {
				answers = answers[1:]
			}
			return a
		}
		return m.module(), nil
	}}
}

func mustFind(t *testing.T, name string) *champion {
	t.Helper()
	r, _ := testRoster(t)
	c, _ := r.find(name)
	if c == nil {
		t.Fatalf("no %s in the table", name)
	}
	return c
}

func testRoster(t *testing.T) (*roster, []champion) {
	t.Helper()
	cs, err := parseChampions(championsTSV)
	if err != nil {
		t.Fatal(err)
	}
	return newRoster(cs), cs
}

func TestTheChampionTableIsWellFormed(t *testing.T) {
	_, cs := testRoster(t)
	if len(cs) < 160 {
		t.Fatalf("%d champions", len(cs))
	}
	for _, c := range cs {
		check := func(attr string, values ...string) {
			for _, v := range values {
				if !slices.Contains(categories[attr], v) {
					t.Errorf("%s: %s %q is not one of %v", c.Name, attr, v, categories[attr])
				}
			}
		}
		check("gender", c.Gender)
		check("positions", c.Positions...)
		check("range", c.Range...)
		check("regions", c.Regions...)
		if c.Resource == "" || slices.Contains(c.Species, "") || c.Year > 2026 {
			t.Errorf("%s: %+v", c.Name, c)
		}
	}
}

func TestMalformedTablesAreRefused(t *testing.T) {
	for name, tsv := range map[string]string{
		"a missing field":      "Ahri\tFemale\tMiddle\tVastaya\tMana\tRanged\t2011\n",
		"a year that is not":   "Ahri\tFemale\tMiddle\tVastaya\tMana\tRanged\tIonia\tlate\n",
		"two names read alike": "Kai'Sa\tFemale\tBottom\tHuman\tMana\tRanged\tThe Void\t2018\nKaisa\tFemale\tBottom\tHuman\tMana\tRanged\tThe Void\t2018\n",
	} {
		if _, err := parseChampions(tsv); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestNamesMatchWhateverTheCaseAndPunctuation(t *testing.T) {
	r, _ := testRoster(t)
	tests := []struct {
		typed, want string
		candidates  []string
	}{
		{"kaisa", "Kai'Sa", nil},
		{"KAI'SA", "Kai'Sa", nil},
		{"kai sa", "Kai'Sa", nil},
		{"dr mundo", "Dr. Mundo", nil},
		{"nunu & willump", "Nunu & Willump", nil},
		{"vi", "Vi", nil},
		{"nunu", "Nunu & Willump", nil}, // the one champion a start of a name fits
		{"jarvan", "Jarvan IV", nil},
		{"kha", "Kha'Zix", nil},
		{"ka", "", nil}, // but not under three letters
		{"mal", "", []string{"Malphite", "Malzahar"}},
		{"kay", "", []string{"Kayle", "Kayn"}},
		{"xyzzy", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			c, candidates := r.find(tt.typed)
			got := ""
			if c != nil {
				got = c.Name
			}
			if got != tt.want || !slices.Equal(candidates, tt.candidates) {
				t.Fatalf("find(%q) = %q %v, want %q %v", tt.typed, got, candidates, tt.want, tt.candidates)
			}
		})
	}
}

func TestAttributesCompare(t *testing.T) {
	tests := []struct {
		name, guess, answer string
		want                []verdict // gender, positions, species, resource, range, regions, year
	}{
		{"the answer itself matches everywhere", "Ahri", "Ahri", []verdict{match, match, match, match, match, match, match}},
		// Kai'Sa: Female, Bottom, Human+Void-Being, Mana, Ranged, The Void, 2018.
		// Kassadin: Male, Middle, Human+Void-Being, Mana, Melee, Shurima+The Void, 2009.
		{"overlapping lists are partial; an older guess points up", "Kassadin", "Kai'Sa",
			[]verdict{miss, miss, match, match, miss, partial, older}},
		{"a newer guess points down", "Kai'Sa", "Kassadin",
			[]verdict{miss, miss, match, match, miss, partial, newer}},
		// Elise is melee and ranged; Ahri ranged only.
		{"a champion with both range types is partial against one", "Elise", "Ahri",
			[]verdict{match, miss, miss, match, partial, miss, newer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cells := compare(mustFind(t, tt.guess), mustFind(t, tt.answer))
			var got []verdict
			for _, c := range cells {
				got = append(got, c.Verdict)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v\n%s", got, tt.want, table(app.Words{}, mustFind(t, tt.guess), cells))
			}
		})
	}
}

func TestAGameFromStartToStats(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Kai'Sa")})
	steps := []apptest.Step{
		{"/loldle_stats", "No finished loldle yet."},
		{"/loldle kassadin", enStart(8) + "\n\nKassadin\n🟥 Gender: Male\n🟥 Positions: Middle\n🟩 Species: Human, Void-Being\n" +
			"🟩 Resource: Mana\n🟥 Range: Melee\n🟨 Regions: Shurima, The Void\n⬆️ Released: 2009\n1/8"},
		{"/loldle Kassadin", "Kassadin was already guessed.\n🟥🟥🟩🟩🟥🟨⬆️ Kassadin\n1/8"},
		{"/loldle teemoo", "No champion called \"teemoo\". A wrong name uses no try."},
		{"/loldle mal", "Which one? Malphite, Malzahar"},
		{"/loldle", "🟥🟥🟩🟩🟥🟨⬆️ Kassadin\n1/8"},
		{"/loldle KAISA", "Kai'Sa\n🟩 Gender: Female\n🟩 Positions: Bottom\n🟩 Species: Human, Void-Being\n🟩 Resource: Mana\n" +
			"🟩 Range: Ranged\n🟩 Regions: The Void\n🟩 Released: 2018\n2/8\nSolved in 2! It was Kai'Sa."},
		{"/loldle_giveup", "No loldle is running. Start one with /loldle."},
		{"/loldle_stats", "Played 1, won 1 (100%)\nStreak 1, best 1\nAverage tries to win: 2.0"},
	}
	b.Converse(apptest.Group, apptest.User, steps)
}

func TestTheAttemptsLimit(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri", "Zed")})
	for _, arg := range []string{"0", "11", "two", ""} {
		b.Expect(apptest.PrivateChat, apptest.Owner, "/loldle_setmax "+arg, "Usage: /loldle_setmax <1..10> (now 8)")
	}
	b.Expect(apptest.PrivateChat, apptest.Owner, "/loldle_setmax 2", "New loldle games allow 2 tries; running games keep theirs.")
	b.MustSay(apptest.Group, apptest.User, "/loldle zed")
	b.MustSay(apptest.Group, apptest.User, "/loldle lux")
	if got := b.Last(); !strings.HasSuffix(got, "2/2\nOut of tries. It was Ahri.") {
		t.Fatalf("the second miss of two: %q", got)
	}
	b.Expect(apptest.Group, apptest.User, "/loldle_stats", "Played 1, won 0 (0%)\nStreak 0, best 0")
}

func TestOnlyTheOwnerSetsTheLimit(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri")})
	b.MustSay(apptest.PrivateChat, apptest.User, "/loldle_setmax 2")
	b.MustSay(apptest.Group, apptest.User, "/loldle")
	if got := b.Last(); !strings.HasPrefix(got, enStart(8)) {
		t.Fatalf("a user changed the limit: %q", got)
	}
}

func TestGiveUpEndsTheGameAndBreaksTheStreak(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri", "Zed")})
	b.MustSay(apptest.Group, apptest.User, "/loldle ahri")
	b.MustSay(apptest.Group, apptest.User, "/loldle lux")
	b.Expect(apptest.Group, apptest.User, "/loldle_giveup", "It was Zed.")
	b.Expect(apptest.Group, apptest.User, "/loldle_stats", "Played 2, won 1 (50%)\nStreak 0, best 1\nAverage tries to win: 1.0")
}

func TestConcurrentGuessesBothCountOnce(t *testing.T) {
	for range 20 {
		b := apptest.New(t, []app.Factory{fixed("Ahri")})
		b.MustSay(apptest.Group, apptest.User, "/loldle")
		var wg sync.WaitGroup
		for _, name := range []string{"zed", "lux"} {
			wg.Go(func() {
				if err := b.Handle(telegramtest.Text(apptest.Group, apptest.User, "/loldle "+name)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var g game
		if err := b.Store.For(Name).GetJSON(context.Background(), games.GameKey(apptest.Group), &g); err != nil {
			t.Fatal(err)
		}
		slices.Sort(g.Guesses)
		if !slices.Equal(g.Guesses, []string{"Lux", "Zed"}) {
			t.Fatalf("guesses after a race: %q", g.Guesses)
		}
	}
}

func TestAGameWhoseChampionLeftTheTableStartsAfresh(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Zed")})
	stale := game{Answer: "Ghost", Guesses: []string{"Ahri"}, Max: 8}
	if err := b.Store.For(Name).PutJSON(context.Background(), games.GameKey(apptest.Group), stale); err != nil {
		t.Fatal(err)
	}
	b.MustSay(apptest.Group, apptest.User, "/loldle zed")
	if got := b.Last(); !strings.HasPrefix(got, enStart(8)) || !strings.HasSuffix(got, "Solved in 1! It was Zed.") {
		t.Fatalf("got %q", got)
	}
}

func TestGamesBelongToTheirChat(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri", "Zed")})
	b.MustSay(apptest.Group, apptest.User, "/loldle zed")
	b.MustSay(apptest.PrivateChat, apptest.User, "/loldle zed")
	if got := b.Last(); !strings.Contains(got, "Solved in 1! It was Zed.") {
		t.Fatalf("the private chat must have its own game: %q", got)
	}
}

// Parsing the table is part of the first loldle command after a start:
// go test -run '^$' -bench Parse -benchmem ./internal/modules/loldle/
func BenchmarkParseChampions(b *testing.B) {
	for b.Loop() {
		cs, err := parseChampions(championsTSV)
		if err != nil {
			b.Fatal(err)
		}
		newRoster(cs)
	}
}

// In a forum topic the buttons act on the chat's game and the new game's
// message lands in the same topic.
func TestButtonsWorkInAForumTopic(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Zed", "Ahri")})
	const chat, topic, user = apptest.Group, 42, 10
	inTopic := func(u *models.Update) *models.Update {
		if u.Message != nil {
			u.Message.IsTopicMessage, u.Message.MessageThreadID = true, topic
		}
		if q := u.CallbackQuery; q != nil {
			q.Message.Message.IsTopicMessage, q.Message.Message.MessageThreadID = true, topic
		}
		return u
	}
	if err := b.Handle(inTopic(telegramtest.Text(chat, user, "/loldle"))); err != nil {
		t.Fatal(err)
	}
	if got := b.Buttons(chat); got != "[🏳 Give up]" {
		t.Fatalf("keyboard %q", got)
	}
	id, _, _ := b.Srv.Keyboard(chat)
	for _, data := range []string{"loldle:g:1", "loldle:y:1:10"} {
		if err := b.Handle(inTopic(telegramtest.Press(chat, user, id, data))); err != nil {
			t.Fatal(err)
		}
	}
	if edits := b.Srv.Edits(); len(edits) != 2 || edits[1].Text != "It was Zed." {
		t.Fatalf("edits %+v", edits)
	}
	if err := b.Handle(inTopic(telegramtest.Press(chat, user, id, "loldle:n:1"))); err != nil {
		t.Fatal(err)
	}
	msgs := b.Srv.Messages()
	if last := msgs[len(msgs)-1]; last.ThreadID != topic || !strings.HasPrefix(last.Text, "New loldle") {
		t.Fatalf("the new game's message: %+v, want it in topic %d", last, topic)
	}
}

// A winning guess whose reply Telegram refused (a 5xx) is delivered again:
// it is played once, and the redelivery gets the reply it earned.
func TestTheWinningGuessIsPlayedOnceWhenTelegramDeliversItAgain(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri", "Zed")})
	b.MustSay(apptest.Group, apptest.User, "/loldle lux") // game 1
	win := telegramtest.Text(apptest.Group, apptest.User, "/loldle ahri")
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := b.Handle(win); err == nil {
		t.Fatal("the update whose reply failed was handled: Telegram would not deliver it again")
	}
	if err := b.Handle(win); err != nil {
		t.Fatalf("the redelivery: %v", err)
	}
	if got := b.Last(); !strings.HasSuffix(got, "2/8\nSolved in 2! It was Ahri.") || b.Buttons(apptest.Group) != "[🔄 New game]" {
		t.Fatalf("the redelivery's reply: %q with %s", got, b.Buttons(apptest.Group))
	}
	var g game
	if err := b.Store.For(Name).GetJSON(context.Background(), games.GameKey(apptest.Group), &g); err != nil {
		t.Fatal(err)
	}
	if g.ID != 1 || !g.Won || !slices.Equal(g.Guesses, []string{"Lux", "Ahri"}) {
		t.Fatalf("the chat's game: %+v; want game 1, won", g)
	}
	b.Expect(apptest.Group, apptest.User, "/loldle_stats", "Played 1, won 1 (100%)\nStreak 1, best 1\nAverage tries to win: 2.0")
}
