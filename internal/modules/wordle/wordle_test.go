package wordle

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestScoreFollowsTheDuplicateLetterRules(t *testing.T) {
	tests := []struct{ guess, answer, want string }{
		{"crane", "crane", "🟩🟩🟩🟩🟩"},
		{"babes", "abbey", "🟨🟨🟩🟩⬛"}, // the green b is counted first
		{"floor", "robot", "⬛⬛🟨🟩🟨"}, // one o green, the other o present
		{"eerie", "crane", "⬛⬛🟨⬛🟩"}, // only one e in the answer, and it is green
		{"speed", "abide", "⬛⬛🟨⬛🟨"}, // the second e finds no e left
		{"geese", "eerie", "⬛🟩🟨⬛🟩"},
	}
	for _, tt := range tests {
		if got := score(tt.guess, tt.answer); string(got[:]) != tt.want {
			t.Errorf("score(%s, %s) = %s, want %s", tt.guess, tt.answer, string(got[:]), tt.want)
		}
	}
}

// fixed is the module with a known sequence of answers.
func fixed(words ...string) app.Factory {
	var mu sync.Mutex
	i := 0
	var ids int64
	return app.Factory{Name: Name, New: func(d app.Deps) (*app.Module, error) {
		m := &module{store: d.Store, log: d.Log, pick: func() string {
			mu.Lock()
			defer mu.Unlock()
			w := words[i%len(words)]
			i++
			return w
		}, newID: func() int64 {
			mu.Lock()
			defer mu.Unlock()
			ids++
			return ids
		}, now: d.Now}
		return m.module(), nil
	}}
}

func TestAGameFromStartToStats(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane", "robot")})
	steps := []apptest.Step{
		{"/wordle_stats", "No finished Wordle yet."},
		{"/wordle", startText},
		{"/wordle cran", "A guess is a five-letter word."},
		{"/wordle cr4ne", "A guess uses the letters a to z only."},
		{"/wordle abcde", `"abcde" is not in the word list.`},
		{"/wordle TRACE", "⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"},
		{"/wordle trace", "\"trace\" was already guessed.\n⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"},
		{"/wordle", "⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"},
		{"/wordle crane", "⬛🟩🟩🟨🟩  TRACE\n🟩🟩🟩🟩🟩  CRANE\n2/6\n🟩 A C E N R\n⬛ T\nSolved in 2/6!"},
		{"/wordle_giveup", "No Wordle is running. Start one with /wordle."},
		{"/wordle floor", startText + "\n⬛⬛🟨🟩🟨  FLOOR\n1/6\n🟩 O\n🟨 R\n⬛ F L"},
		{"/wordle_giveup", "The word was ROBOT."},
		{"/wordle_stats", "Played 2, won 1 (50%)\nStreak 0, best 1\n1: 0\n2: █1\n3: 0\n4: 0\n5: 0\n6: 0"},
	}
	b.Converse(apptest.PrivateChat, apptest.User, steps)
}

func TestSixMissesEndTheGame(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane")})
	for _, w := range []string{"abide", "robot", "floor", "speed", "babes", "geese"} {
		b.MustSay(apptest.Group, apptest.User, "/wordle "+w)
	}
	if last := b.Last(); !strings.HasSuffix(last, "6/6\n🟩 E\n🟨 A R\n⬛ B D F G I L O P S T\nOut of tries. The word was CRANE.") {
		t.Fatalf("last reply:\n%s", last)
	}
}

// Two guesses sent at once to one group game both count, exactly once.
func TestConcurrentGuessesBothCountOnce(t *testing.T) {
	for range 20 {
		b := apptest.New(t, []app.Factory{fixed("crane")})
		b.MustSay(apptest.Group, apptest.User, "/wordle")
		var wg sync.WaitGroup
		for _, w := range []string{"trace", "robot"} {
			wg.Go(func() {
				if err := b.Handle(telegramtest.Text(apptest.Group, apptest.User, "/wordle "+w)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var g game
		if err := b.Store.For(Name).GetJSON(context.Background(), games.GameKey(apptest.Group), &g); err != nil {
			t.Fatal(err)
		}
		if len(g.Guesses) != 2 || !(strings.Contains(strings.Join(g.Guesses, ","), "trace") && strings.Contains(strings.Join(g.Guesses, ","), "robot")) {
			t.Fatalf("guesses after a race: %q", g.Guesses)
		}
	}
}

func TestGamesBelongToTheirChat(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane", "robot")})
	b.MustSay(apptest.Group, apptest.User, "/wordle trace")
	b.MustSay(apptest.PrivateChat, apptest.User, "/wordle trace")
	msgs := b.Srv.Messages()
	if !strings.Contains(msgs[0].Text, "⬛🟩🟩🟨🟩") || !strings.Contains(msgs[1].Text, "🟨🟨⬛⬛⬛") {
		t.Fatalf("the group and the private chat must have their own games: %q / %q", msgs[0].Text, msgs[1].Text)
	}
}

func TestTheEmbeddedListsAreUsable(t *testing.T) {
	if answers.len() < 1000 || guesses.len() < answers.len() {
		t.Fatalf("%d answers, %d guesses", answers.len(), guesses.len())
	}
	for name, l := range map[string]wordList{"answers": answers, "guesses": guesses} {
		if !regexp.MustCompile(`\A([a-z]{5}\n)+\z`).MatchString(string(l)) {
			t.Fatalf("%s: not one five-letter lower-case word per line, each line ending in a newline", name)
		}
		for i := 1; name == "guesses" && i < l.len(); i++ {
			if l.at(i-1) >= l.at(i) {
				t.Fatalf("guesses: %q before %q: not sorted", l.at(i-1), l.at(i))
			}
		}
	}
	for i := range answers.len() {
		if a := answers.at(i); !isWord(a) || refused(a) {
			t.Fatalf("answer %q is not a valid guess", a)
		}
	}
}

func TestButtonsGiveUpWithAConfirmationAndStartANewGame(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane", "robot")})
	const chat, alice, bob = apptest.Group, 10, 11
	lastEdit := func() string {
		edits := b.Srv.Edits()
		if len(edits) == 0 {
			return ""
		}
		return edits[len(edits)-1].Text
	}
	press := func(user int64, label string) string {
		t.Helper()
		data, err := b.Press(chat, user, label)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		return data
	}
	board := "⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"

	b.MustSay(chat, alice, "/wordle")
	b.MustSay(chat, alice, "/wordle trace")
	if got := b.Buttons(chat); got != "[🏳 Give up]" {
		t.Fatalf("a running game's keyboard: %q", got)
	}
	if data := press(bob, "🏳 Give up"); data != "wordle:g:1" {
		t.Errorf("give-up data %q", data)
	}
	if got, want := lastEdit(), "Give up this Wordle?\n"+board; got != want || b.Buttons(chat) != "[Yes, give up] [No, keep playing]" {
		t.Fatalf("the confirmation edits the board in place: %q with %s", got, b.Buttons(chat))
	}
	confirm := press(alice, "Yes, give up") // alice did not ask: a toast, nothing else
	if toasts := b.Toasts(); toasts[len(toasts)-1] != games.NotYoursToast {
		t.Fatalf("a foreign confirmation: toasts %q", toasts)
	}
	if confirm != "wordle:y:1:11" {
		t.Errorf("the confirmation names the game and the user who asked: %q", confirm)
	}
	press(bob, "No, keep playing")
	if got := lastEdit(); got != board || b.Buttons(chat) != "[🏳 Give up]" {
		t.Fatalf("keep playing shows the board again: %q with %s", got, b.Buttons(chat))
	}
	press(bob, "🏳 Give up")
	press(bob, "Yes, give up")
	if got := lastEdit(); got != "The word was CRANE." || b.Buttons(chat) != "[🔄 New game]" {
		t.Fatalf("after giving up: %q with %s", got, b.Buttons(chat))
	}
	// A double tap: the same confirmation again acts no more.
	if err := b.Handle(telegramtest.Press(chat, bob, 0, confirm[:len("wordle:y:1:")]+"11")); err != nil {
		t.Fatal(err)
	}
	if toasts := b.Toasts(); toasts[len(toasts)-1] != games.StaleToast {
		t.Fatalf("a second give-up of an ended game: toasts %q", toasts)
	}
	newGame := press(alice, "🔄 New game")
	if got := b.Last(); got != startText || b.Buttons(chat) != "[🏳 Give up]" {
		t.Fatalf("new game: %q with %s", got, b.Buttons(chat))
	}
	if err := b.Handle(telegramtest.Press(chat, bob, 0, newGame)); err != nil { // the old message's button, tapped again
		t.Fatal(err)
	}
	if toasts := b.Toasts(); toasts[len(toasts)-1] != games.StaleToast {
		t.Fatalf("a stale new-game press: toasts %q", toasts)
	}
	b.Expect(chat, alice, "/wordle_stats", "Played 1, won 0 (0%)\nStreak 0, best 0\n1: 0\n2: 0\n3: 0\n4: 0\n5: 0\n6: 0")
	b.Expect(chat, alice, "/wordle robot", "🟩🟩🟩🟩🟩  ROBOT\n1/6\n🟩 B O R T\nSolved in 1/6!")
	if got := b.Buttons(chat); got != "[🔄 New game]" {
		t.Fatalf("a won game's keyboard: %q", got)
	}
}

// Buttons already on users' messages carry the format games.Play wrote
// before app.CallbackData ("wordle:<action>:<game>[:<user>]"): they keep
// working, and anything else a client sends gets a toast, never an error.
func TestOldButtonsKeepWorkingAndForgedOnesGetAToast(t *testing.T) {
	const chat, alice, bob = apptest.Group, 10, 11
	tests := []struct {
		data, toast string
		edits       int
	}{
		{"wordle:g:1", "", 1},    // asks bob to confirm
		{"wordle:k:1:11", "", 1}, // bob keeps playing
		{"wordle:y:1:10", games.NotYoursToast, 0},
		{"wordle:g:2", games.StaleToast, 0},     // another game's button
		{"wordle:y:1", app.StaleButtonToast, 0}, // a confirmation names who asked
		{"wordle:g:1:11", app.StaleButtonToast, 0},
		{"wordle:g:+1", app.StaleButtonToast, 0},
		{"wordle:g:01", app.StaleButtonToast, 0},
		{"wordle:g::1", app.StaleButtonToast, 0},
		{"wordle:g:99999999999999999999", app.StaleButtonToast, 0},
		{"wordle:z:1", app.StaleButtonToast, 0},
		{"wordle:g:1\xff", app.StaleButtonToast, 0},
		{"wordle:", app.StaleButtonToast, 0},
	}
	for _, tt := range tests {
		b := apptest.New(t, []app.Factory{fixed("crane")})
		b.MustSay(chat, alice, "/wordle") // game 1
		if toast, edits, err := b.PressData(chat, bob, 1, tt.data); err != nil || toast != tt.toast || edits != tt.edits {
			t.Errorf("%q: toast %q, %d edits, %v; want %q, %d edits", tt.data, toast, edits, err, tt.toast, tt.edits)
		}
	}
}

// Telegram delivers an update again when handling it failed, and a reply
// refused with a 5xx fails it: the move that ended the game is made once,
// and its redelivery gets the reply the move earned, with its keyboard.
func TestTheMoveThatEndsAGameIsMadeOnceWhenTelegramDeliversItAgain(t *testing.T) {
	const board = "⬛🟩🟩🟨🟩  TRACE\n"
	tests := []struct {
		name, command string
		guesses       string // the game's, after
		reply, stats  string
	}{
		{"the winning guess", "/wordle crane", "trace crane", board + "🟩🟩🟩🟩🟩  CRANE\n2/6\n🟩 A C E N R\n⬛ T\nSolved in 2/6!",
			"Played 1, won 1 (100%)\nStreak 1, best 1\n1: 0\n2: █1\n3: 0\n4: 0\n5: 0\n6: 0"},
		{"giving up", "/wordle_giveup", "trace", "The word was CRANE.",
			"Played 1, won 0 (0%)\nStreak 0, best 0\n1: 0\n2: 0\n3: 0\n4: 0\n5: 0\n6: 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.New(t, []app.Factory{fixed("crane", "robot")})
			b.MustSay(apptest.Group, apptest.User, "/wordle trace") // game 1
			end := telegramtest.Text(apptest.Group, apptest.User, tt.command)
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
			if err := b.Handle(end); err == nil {
				t.Fatal("the update whose reply failed was handled: Telegram would not deliver it again")
			}
			if err := b.Handle(end); err != nil {
				t.Fatalf("the redelivery: %v", err)
			}
			if got := b.Last(); got != tt.reply || b.Buttons(apptest.Group) != "[🔄 New game]" {
				t.Fatalf("the redelivery's reply: %q with %s\nwant: %q with [🔄 New game]", got, b.Buttons(apptest.Group), tt.reply)
			}
			var g game
			if err := b.Store.For(Name).GetJSON(context.Background(), games.GameKey(apptest.Group), &g); err != nil {
				t.Fatal(err)
			}
			if g.ID != 1 || !g.Over || strings.Join(g.Guesses, " ") != tt.guesses {
				t.Fatalf("the chat's game: %+v; want game 1, over, as the move left it", g)
			}
			b.Expect(apptest.Group, apptest.User, "/wordle_stats", tt.stats)
		})
	}
}

// A "new game" press whose message could not be sent is run again (the
// game it started stands): its run again starts no second game and sends
// the message the first run owed.
func TestANewGamePressDeliveredAgainStartsOneGame(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane", "robot", "slate")})
	const chat = apptest.Group
	b.MustSay(chat, apptest.User, "/wordle crane") // game 1, won
	id, _, _ := b.Srv.Keyboard(chat)
	press := telegramtest.Press(chat, apptest.User, id, "wordle:n:1")
	press.ID = 777
	b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	if err := b.Handle(press); err == nil {
		t.Fatal("the press whose message failed was handled: the new game would go unannounced")
	}
	if err := b.Handle(press); err != nil {
		t.Fatalf("the press run again: %v", err)
	}
	if got := b.Last(); got != startText || b.Buttons(chat) != "[🏳 Give up]" {
		t.Fatalf("the press run again: %q with %s; want the new game's message", got, b.Buttons(chat))
	}
	b.Expect(chat, apptest.User, "/wordle robot", "🟩🟩🟩🟩🟩  ROBOT\n1/6\n🟩 B O R T\nSolved in 1/6!")
}

func refused(guess string) bool {
	why, _ := checkGuess(guess)
	return why != ""
}
