package builtin_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A Vietnamese reader walking every command and button of every module,
// in a private chat and in a group, reads no English: no reply, button,
// toast, /help page, inline answer or command menu says what the same
// walk in English says in the same words, nor speaks only English by the
// catalog (locale.Speaks). The markets (coin, gold, stock, portfolio)
// walk their own way, in their packages' tests.
func TestAVietnameseReaderWalksEveryScreenAndReadsNoEnglish(t *testing.T) {
	for _, group := range []bool{false, true} {
		name := "private"
		if group {
			name = "group"
		}
		t.Run(name, func(t *testing.T) {
			en, vi := walk(t, "en", group), walk(t, "vi", group)
			said := map[string]bool{}
			for _, p := range en {
				said[p.text] = true
			}
			cat := apptest.New(t, builtin.Catalogue()).App.Catalog()
			for _, p := range vi {
				switch {
				case said[p.text] && words(p.text) >= 2 && !sameInBoth(p.text):
					t.Errorf("%s: reads as in English: %q", p.where, p.text)
				case p.whole && slices.Equal(cat.Speaks(p.text), []locale.Lang{locale.English}):
					t.Errorf("%s: the catalog's English: %q", p.where, p.text)
				}
			}
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

// piece is one thing a reader reads: a message's text (whole) or one of
// its lines, a button's label, a toast, a menu's description.
type piece struct {
	where, text string
	whole       bool
}

// walk is everything the bot shows the owner, speaking lang, in their
// private chat or in a group they added the bot to: each command of every
// module but the markets' alone, walkInputs, every button of what each
// shows (and of what a press shows), the inline answers and the menus.
func walk(t *testing.T, lang string, group bool) []piece {
	b := apptest.New(t, builtin.Catalogue())
	b.Speaks(apptest.Owner, lang)
	chat := int64(apptest.Owner)
	if group {
		chat = apptest.Group
		added := telegramtest.RecordedUpdate(t, "update_my_chat_member_added_group.json")
		added.MyChatMember.Chat.ID, added.MyChatMember.From.ID = chat, apptest.Owner
		if err := b.Handle(added); err != nil {
			t.Fatal(err)
		}
		b.Srv.SetChatAdmin(chat, apptest.Owner)
	}
	var inputs []string
	for _, c := range b.App.Registry().Commands() {
		if !slices.Contains(markets, c.Module) {
			inputs = append(inputs, "/"+c.Name)
		}
	}
	pressed := map[string]bool{} // each button's data once a walk
	for _, in := range append(inputs, walkInputs...) {
		n := len(b.Srv.Calls())
		_ = b.Say(chat, apptest.Owner, in) // a refused input is read like any other
		pressAll(b, chat, b.Srv.Calls()[n:], 2, pressed)
	}
	for _, q := range []string{"", "wordle"} {
		b.Handle(b.Srv.InlineQuery(apptest.Owner, q, "supergroup"))
	}
	if err := b.App.SyncCommands(t.Context()); err != nil {
		t.Fatal(err)
	}
	out := read(b.Srv.Calls())
	menuLang := ""
	if lang != "en" {
		menuLang = lang
	}
	for _, scope := range []string{"default", "all_group_chats"} {
		for _, c := range b.Srv.CommandsFor(menuLang, scope) {
			out = append(out, piece{where: "menu /" + c.Command, text: c.Description, whole: true})
		}
	}
	return out
}

// pressAll presses every button the calls showed in chat, once each, and
// the buttons what a press shows, depth presses deep; a button's data
// pressed once in the walk is not pressed again.
func pressAll(b *apptest.Bot, chat int64, calls []telegramtest.Call, depth int, pressed map[string]bool) {
	if depth == 0 {
		return
	}
	for _, c := range calls {
		id := 0
		if c.Method == "editMessageText" || c.Method == "editMessageReplyMarkup" {
			fmt.Sscan(c.Params["message_id"], &id)
		}
		for _, data := range callbacks(c.Params["reply_markup"]) {
			if strings.HasPrefix(data, "lang:") {
				continue // the walk stays in its language
			}
			if id == 0 {
				id, _, _ = b.Srv.Keyboard(chat) // the newest message with a keyboard: this one
			}
			if pressed[data] {
				continue
			}
			pressed[data] = true
			n := len(b.Srv.Calls())
			_ = b.Handle(telegramtest.Press(chat, apptest.Owner, id, data))
			pressAll(b, chat, b.Srv.Calls()[n:], depth-1, pressed)
		}
	}
}

type keyboard struct {
	InlineKeyboard [][]struct {
		Text         string `json:"text"`
		CallbackData string `json:"callback_data"`
	} `json:"inline_keyboard"`
}

func callbacks(markup string) []string {
	var kb keyboard
	_ = json.Unmarshal([]byte(markup), &kb)
	var out []string
	for _, row := range kb.InlineKeyboard {
		for _, btn := range row {
			if btn.CallbackData != "" {
				out = append(out, btn.CallbackData)
			}
		}
	}
	return out
}

// read is every piece the calls show a reader.
func read(calls []telegramtest.Call) []piece {
	var out []piece
	add := func(where, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		out = append(out, piece{where: where, text: text, whole: true})
		for _, line := range strings.Split(text, "\n") {
			out = append(out, piece{where: where, text: strings.TrimSpace(line)})
		}
	}
	for _, c := range calls {
		add(c.Method, c.Params["text"])
		add(c.Method+" caption", c.Params["caption"])
		var kb keyboard
		_ = json.Unmarshal([]byte(c.Params["reply_markup"]), &kb)
		for _, row := range kb.InlineKeyboard {
			for _, btn := range row {
				add(c.Method+" button", btn.Text)
			}
		}
		var results []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Content     struct {
				Text string `json:"message_text"`
			} `json:"input_message_content"`
			Markup json.RawMessage `json:"reply_markup"`
		}
		_ = json.Unmarshal([]byte(c.Params["results"]), &results)
		for _, r := range results {
			add("inline title", r.Title)
			add("inline description", r.Description)
			add("inline text", r.Content.Text)
			_ = json.Unmarshal(r.Markup, &kb)
		}
	}
	return out
}

// words counts s's words of two letters or more outside commands and
// mentions: a line of one word ("pong", "util") tells no language.
func words(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "@") {
			continue
		}
		for _, w := range strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) >= 2 {
				n++
			}
		}
	}
	return n
}

// sameInBoth are the texts that read the same in both languages: names
// and data, not sentences (/language's buttons name each language in
// itself; /info's ids).
func sameInBoth(s string) bool {
	if s == "Tiếng Việt" {
		return true
	}
	for _, prefix := range []string{"chat_id:", "thread_id:", "user_id:"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
