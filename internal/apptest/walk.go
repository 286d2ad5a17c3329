package apptest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Piece is one thing a reader reads: a message's text (Whole) or one of
// its lines, a button's label, a toast, an inline answer, a menu entry.
type Piece struct {
	Where, Text string
	Whole       bool
}

// Walk is everything the bot shows user in chat when they type each of
// inputs, press every button that shows (and the buttons a press shows,
// two presses deep; a button's data once), ask each of queries inline,
// and open the command menus. A refused input is read like any other.
func (b *Bot) Walk(t testing.TB, chat, user int64, inputs, queries []string) []Piece {
	t.Helper()
	pressed := map[string]bool{}
	for _, in := range inputs {
		n := len(b.Srv.Calls())
		_ = b.Say(chat, user, in)
		b.pressAll(chat, user, b.Srv.Calls()[n:], 2, pressed)
	}
	for _, q := range queries {
		_ = b.Handle(b.Srv.InlineQuery(user, q, "supergroup"))
	}
	if err := b.App.SyncCommands(t.Context()); err != nil {
		t.Fatal(err)
	}
	out := readCalls(b.Srv.Calls())
	for _, a := range b.Srv.InlineAnswers() {
		for _, r := range a.Results {
			out = append(out, lines("inline title", r.Title)...)
			out = append(out, lines("inline description", r.Description)...)
			out = append(out, lines("inline text", r.Text)...)
		}
	}
	lang, _ := b.langs.Load(user)
	menuLang, _ := lang.(string)
	if menuLang == "en" {
		menuLang = ""
	}
	for _, scope := range []string{"default", "all_group_chats"} {
		for _, c := range b.Srv.CommandsFor(menuLang, scope) {
			out = append(out, Piece{Where: "menu /" + c.Command, Text: c.Description, Whole: true})
		}
	}
	return out
}

// ReadsNoEnglish fails on what vi, a Vietnamese reader's walk, shows in
// English: a line (a locale.Sentence) that en, the same walk in
// English, says in the same words (but sameInBoth's), or a whole text the
// catalog cat knows in English only.
func ReadsNoEnglish(t testing.TB, en, vi []Piece, cat *locale.Catalog, sameInBoth func(string) bool) {
	t.Helper()
	if len(en) == 0 || len(vi) == 0 {
		t.Fatalf("a walk read nothing: %d pieces in English, %d in Vietnamese", len(en), len(vi))
	}
	said := map[string]bool{}
	for _, p := range en {
		said[p.Text] = true
	}
	for _, p := range vi {
		switch {
		case said[p.Text] && locale.Sentence(p.Text) && (sameInBoth == nil || !sameInBoth(p.Text)):
			t.Errorf("%s: reads as in English: %q", p.Where, p.Text)
		case p.Whole && slices.Equal(cat.Speaks(p.Text), []locale.Lang{locale.English}):
			t.Errorf("%s: the catalog's English: %q", p.Where, p.Text)
		}
	}
}

// pressAll presses every button calls showed in chat, once each, and the
// buttons what a press shows, depth presses deep. A language's buttons
// are not pressed: the walk stays in its language.
func (b *Bot) pressAll(chat, user int64, calls []telegramtest.Call, depth int, pressed map[string]bool) {
	if depth == 0 {
		return
	}
	for _, c := range calls {
		id := 0
		if c.Method == "editMessageText" || c.Method == "editMessageReplyMarkup" {
			fmt.Sscan(c.Params["message_id"], &id)
		}
		for _, data := range callbacks(c.Params["reply_markup"]) {
			if strings.HasPrefix(data, "lang:") || pressed[data] {
				continue
			}
			if id == 0 {
				id, _, _ = b.Srv.Keyboard(chat) // the newest message with a keyboard: this one
			}
			pressed[data] = true
			n := len(b.Srv.Calls())
			_ = b.Handle(telegramtest.Press(chat, user, id, data))
			b.pressAll(chat, user, b.Srv.Calls()[n:], depth-1, pressed)
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

// lines are text whole and each of its lines ("" is none).
func lines(where, text string) []Piece {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	out := []Piece{{Where: where, Text: text, Whole: true}}
	for _, line := range strings.Split(text, "\n") {
		out = append(out, Piece{Where: where, Text: strings.TrimSpace(line)})
	}
	return out
}

// readCalls is every piece the calls show a reader (inline answers
// aside: Walk reads them as the fake took them).
func readCalls(calls []telegramtest.Call) []Piece {
	var out []Piece
	add := func(where, text string) { out = append(out, lines(where, text)...) }
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
	}
	return out
}

// WalkInBoth walks two fresh bots from newBot, one reader speaking
// English and one Vietnamese, as user in chat (Walk): each command of
// module alone, then inputs and queries. A group is one user added the
// bot to (AddedToGroup), so it speaks their language. cat is the bots'
// catalog.
func WalkInBoth(t *testing.T, newBot func(*testing.T) *Bot, chat, user int64, module string, inputs, queries []string) (en, vi []Piece, cat *locale.Catalog) {
	t.Helper()
	walk := func(lang string) []Piece {
		b := newBot(t)
		b.Speaks(user, lang)
		if chat < 0 {
			b.AddedToGroup(t, chat, user)
		}
		cat = b.App.Catalog()
		var all []string
		for _, c := range b.App.Registry().Commands() {
			if c.Module == module {
				all = append(all, "/"+c.Name)
			}
		}
		return b.Walk(t, chat, user, append(all, inputs...), queries)
	}
	return walk("en"), walk("vi"), cat
}

// AddedToGroup: by adds the bot to the group chat and is its admin, as
// Telegram tells it (a recorded my_chat_member update).
func (b *Bot) AddedToGroup(t testing.TB, chat, by int64) {
	t.Helper()
	added := telegramtest.RecordedUpdate(t, "update_my_chat_member_added_group.json")
	added.MyChatMember.Chat.ID, added.MyChatMember.From.ID = chat, by
	if err := b.Handle(added); err != nil {
		t.Fatal(err)
	}
	b.Srv.SetChatAdmin(chat, by)
}

// WalkReadsNoEnglish: a Vietnamese User walking module (WalkInBoth) in
// their private chat and in a group reads no English (ReadsNoEnglish).
func WalkReadsNoEnglish(t *testing.T, newBot func(*testing.T) *Bot, module string, inputs, queries []string, sameInBoth func(string) bool) {
	t.Helper()
	for name, chat := range map[string]int64{"private": PrivateChat, "group": Group} {
		t.Run(name, func(t *testing.T) {
			en, vi, cat := WalkInBoth(t, newBot, chat, User, module, inputs, queries)
			ReadsNoEnglish(t, en, vi, cat, sameInBoth)
		})
	}
}
