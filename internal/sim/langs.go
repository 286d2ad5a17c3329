package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The users speak both languages: each carries the language_code of their
// client (about half "vi", some "en", some none), and now and then one
// chooses the bot's language with /language in their private chat, or an
// admin a group's. Replies are checked against what the engine should
// speak to each chat (langs.go's model, checkLanguage); the other checkers
// read facts (the store's records, buttons, message ids), never a reply's
// words, so the life holds whichever language the modules answer in.

// drawCodes gives each user their client's language_code, from the
// languages' own stream: a seed's other draws keep their shape.
func drawCodes(r *rand.Rand, users []int64) map[int64]string {
	out := map[int64]string{}
	for _, u := range users {
		switch x := r.IntN(20); {
		case x < 8:
			out[u] = "vi"
		case x < 10:
			out[u] = "vi-VN"
		case x < 13:
			out[u] = "en"
		case x < 15:
			out[u] = "en-US"
		case x < 16:
			out[u] = "fr" // a language the bot does not speak: English
		default:
			out[u] = "" // the client gave none
		}
	}
	return out
}

// langModel is what language the engine should speak to each chat: a
// chat's choice (/language) or in a group its adder's, else a private
// chat's client's, else English.
type langModel struct {
	r       *rand.Rand
	choice  map[int64]locale.Lang
	addedBy map[int64]locale.Lang
	// changed is when a chat's language record last changed: a process
	// trusts what it read of a chat for the engine's langTTL, so another
	// process may speak the language before the change until then.
	changed map[int64]time.Time
	admins  map[[2]int64]bool // chat, user: made an admin of the chat
}

// langTTL is the engine's (internal/core/langstate.go).
const langTTL = time.Minute

// langUnread is the engine's warning for an update whose chat's language
// it could not read (it answers in the client's, or English).
const langUnread = "could not read the chat's language; answering in its client's"

func newLangModel(seed uint64) *langModel {
	return &langModel{r: rand.New(rand.NewPCG(seed, 0x6c616e67)), // "lang"
		choice: map[int64]locale.Lang{}, addedBy: map[int64]locale.Lang{}, changed: map[int64]time.Time{}, admins: map[[2]int64]bool{}}
}

// userOf is id as Telegram sends it, with its client's language_code.
func (n *ids) userOf(id int64) *models.User {
	u := userOf(id)
	u.LanguageCode = n.codes[id]
	return u
}

// chatLang is the language c is spoken to in, the sender's client code
// being client.
func (m *langModel) chatLang(c *chat, client string) locale.Lang {
	if l, ok := m.choice[c.id]; ok {
		return l
	}
	if c.kind != private {
		if l, ok := m.addedBy[c.id]; ok {
			return l
		}
		return locale.English
	}
	return locale.FromTelegram(client)
}

// maybeLanguage is, now and then, a user choosing their private chat's
// language, or someone a group's (its anonymous admin, an admin, or a
// member, whom the bot refuses): "/language <code>", or "/language" and
// the pressed button of the language.
func (l *life) maybeLanguage() {
	m := l.langs
	if m.r.IntN(50) != 0 {
		return
	}
	c, thread, ok := l.world.pick(m.r)
	if !ok {
		return
	}
	want := locale.Langs[m.r.IntN(len(locale.Langs))]
	user, anonymous := c.id, false
	if c.kind != private {
		user = c.members[m.r.IntN(len(c.members))]
		switch x := m.r.IntN(3); {
		case x == 0 && c.super:
			user, anonymous = c.id, true
		case x < 2:
			l.fake.SetChatAdmin(c.id, user)
			m.admins[[2]int64{c.id, user}] = true
		}
	}
	text := "/language " + string(want)
	buttons := !anonymous && m.r.IntN(3) == 0 // an anonymous admin presses as no one
	if buttons {
		text = "/language"
	}
	u := l.ids.text(l.clk.Now(), c, thread, user, text)
	if anonymous {
		asChat(u.Message)
	}
	l.hist.count("language-asked", 1)
	d := &delivery{u: u, what: fmt.Sprintf("%d/%d from %d: %s", c.id, thread, user, text),
		exp: expReply, chat: c, thread: thread, user: user, cmd: "language"}
	calls := l.deliver(d)
	l.remember(d)
	if !buttons {
		return
	}
	for _, call := range calls {
		if data := cancelOf(call.Markup, "lang:"+string(want)); call.OK && call.Method == "sendMessage" && data != "" {
			l.hist.count("language-pressed", 1)
			l.press(c, thread, user, call.Message, data, string(want))
			return
		}
	}
}

// langRecord is the engine's record of a chat's language, as stored.
type langRecord struct {
	Choice  locale.Lang `json:"choice"`
	AddedBy locale.Lang `json:"added_by"`
	Client  locale.Lang `json:"client"`
}

func (l *life) langRecord(chat int64) langRecord {
	var rec langRecord
	err := l.cfg.Store.For(storage.CoreNamespace).GetJSON(context.Background(), "lang:"+strconv.FormatInt(chat, 10), &rec)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		l.t.Fatal(err)
	}
	return rec
}

// langChosen is the language d chooses for its chat ("" for none):
// "/language <code>", or a press of /language's button.
func langChosen(d *delivery) locale.Lang {
	switch {
	case d.chat == nil:
	case d.u.Message != nil && d.cmd == "language":
		_, arg, _ := strings.Cut(d.u.Message.Text, " ")
		return locale.Lang(arg)
	case d.u.CallbackQuery != nil:
		if code, ok := strings.CutPrefix(d.u.CallbackQuery.Data, "lang:"); ok {
			return locale.Lang(code)
		}
	}
	return ""
}

// langHeard moves the model after d: a chat's choice made, a group's adder
// known. What the engine recorded is the fact; it must be what was asked
// by someone who may choose (anyone in a private chat, a group's admin),
// or what the chat had. chose reports that d made a choice.
func (l *life) langHeard(d *delivery) (chose bool) {
	m, now := l.langs, l.clk.Now()
	if want := langChosen(d); want != "" {
		had, got := m.choice[d.chat.id], l.langRecord(d.chat.id).Choice
		may := d.chat.kind == private || d.user == d.chat.id || m.admins[[2]int64{d.chat.id, d.user}]
		switch {
		case got == had:
		case got == want && may:
			m.choice[d.chat.id] = want
			l.hist.count("language-chosen", 1)
			chose = true
		case got == want:
			l.fail("language", "%s: %d, no admin of %d, chose its language %q", d.what, d.user, d.chat.id, got)
		default:
			l.fail("language", "%s: the chat's language is %q, neither the %q asked nor the %q it had", d.what, got, want, had)
		}
		m.changed[d.chat.id] = now
		return chose
	}
	// The bot added to a group (it speaks its adder's language), removed
	// or blocked (the chat's language forgotten), a group become a
	// supergroup (its language moved): the model takes the engine's record
	// of the chat, as the update left it.
	var chat int64
	switch {
	case d.u.MyChatMember != nil:
		chat = d.u.MyChatMember.Chat.ID
	case d.u.Message != nil && d.u.Message.MigrateFromChatID != 0:
		chat = d.u.Message.Chat.ID
	default:
		return false
	}
	rec := l.langRecord(chat)
	for mm, lang := range map[*map[int64]locale.Lang]locale.Lang{&m.choice: rec.Choice, &m.addedBy: rec.AddedBy} {
		if lang == "" {
			delete(*mm, chat)
		} else {
			(*mm)[chat] = lang
		}
	}
	m.changed[chat] = now
	return false
}
