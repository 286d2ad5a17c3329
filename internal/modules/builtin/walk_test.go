package builtin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
)

// A Vietnamese reader walking every command and button of every module,
// in a private chat and in a group, reads no English: no reply, button,
// toast, /help page, inline answer or command menu says what the same
// walk in English says in the same words, nor speaks only English by the
// catalog (apptest.ReadsNoEnglish). The markets (coin, gold, stock,
// portfolio) walk with their fake price sources, in their packages.
func TestAVietnameseReaderWalksEveryScreenAndReadsNoEnglish(t *testing.T) {
	for _, group := range []bool{false, true} {
		name := "private"
		if group {
			name = "group"
		}
		t.Run(name, func(t *testing.T) {
			cat := apptest.New(t, builtin.Catalogue()).App.Catalog()
			apptest.ReadsNoEnglish(t, walk(t, "en", group), walk(t, "vi", group), cat, sameInBoth)
		})
	}
}

// markets are the modules whose screens their own tests walk.
var markets = []string{"coin", "gold", "stock", "portfolio"}

// walkInputs are what a reader types besides each command alone: the
// usual arguments and the wrong ones, answers to the bot's questions.
var walkInputs = []string{
	"/language xx", "/help nosuch", "/nosuchcommand", "/cancel",
	"/remind", "uống thuốc", "soon", "10m",
	"/remind soon hi", "/remind 10m", "/remind 10m tea", "/remind 367d x", "/remind at 2020-01-01 00:00 x",
	"/remind " + strings.Repeat("x", 1001), "/remind tomorrow 8am tea", "/remind_list",
	"/wordle", "/wordle crane", "/wordle xx", "/wordle zzzzz", "/wordle_giveup", "/wordle_stats",
	"/loldle", "/loldle Ahri", "/loldle nosuch", "/loldle_giveup", "/loldle_setmax 5", "/loldle_setmax 99",
	"/twentyq is it alive", "/stats users", "/stats user 1", "/stats cmd ping", "/stats cmd nosuch", "/stats bogus",
	"hello",
}

// walk is everything the bot shows the owner, speaking lang, in their
// private chat or in a group they added the bot to: each command of every
// module but the markets' alone, walkInputs, every button of what each
// shows (and of what a press shows), the inline answers and the menus.
func walk(t *testing.T, lang string, group bool) []apptest.Piece {
	b := apptest.New(t, builtin.Catalogue())
	b.Speaks(apptest.Owner, lang)
	chat := int64(apptest.Owner)
	if group {
		chat = apptest.Group
		b.AddedToGroup(t, chat, apptest.Owner)
	}
	var inputs []string
	for _, c := range b.App.Registry().Commands() {
		if !slices.Contains(markets, c.Module) {
			inputs = append(inputs, "/"+c.Name)
		}
	}
	return b.Walk(t, chat, apptest.Owner, append(inputs, walkInputs...), []string{"", "wordle"})
}

// sameInBoth is what reads the same in both languages though two words:
// /language's Vietnamese button names the language in itself.
func sameInBoth(s string) bool { return s == "Tiếng Việt" }
