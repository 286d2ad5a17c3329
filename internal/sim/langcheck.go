package sim

import (
	"encoding/json"
	"strings"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// checkLanguage: a reply, edit or toast of d in d's chat speaks the chat's
// language (langModel): no text of it is one the catalog holds in the
// other language only. Excused: a chat whose record changed within the
// engine's langTTL, and an update whose chat's language the engine could
// not read (it logs langUnread and answers in the client's).
func (l *life) checkLanguage(d *delivery, calls []Call, unread, chose bool) {
	if d.chat == nil || d.again || unread {
		return
	}
	// A choice is confirmed in the language chosen, whatever was cached.
	if at, ok := l.langs.changed[d.chat.id]; !chose && ok && l.clk.Now().Sub(at) < langTTL {
		return
	}
	var client string
	switch {
	case d.u.Message != nil && d.u.Message.From != nil:
		client = d.u.Message.From.LanguageCode
	case d.u.CallbackQuery != nil:
		client = d.u.CallbackQuery.From.LanguageCode
	case d.u.InlineQuery != nil:
		l.checkInlineLanguage(d, calls)
		return
	default:
		return
	}
	want := l.langs.chatLang(d.chat, client)
	for _, c := range calls {
		mine := c.Chat == d.chat.id || (d.u.CallbackQuery != nil && c.QueryID == d.u.CallbackQuery.ID)
		if c.OK && mine && c.Method != "answerInlineQuery" {
			l.speaks(d.what, c, want)
		}
	}
}

// checkSentLanguage: what a job sent (a reminder, a push, an alert, a
// conversation's time-out) speaks its chat's language, a private chat's
// being its choice, else its client's as the engine kept it (the
// record's), else English. Excused as checkLanguage's; a job whose try
// failed (the store down) may have spoken English.
func (l *life) checkSentLanguage(job string, calls []Call, failed bool) {
	if failed {
		return
	}
	for _, c := range calls {
		ch := l.world.byID(c.SentChat)
		if !c.OK || c.Method != "sendMessage" || ch == nil {
			continue
		}
		if at, ok := l.langs.changed[ch.id]; ok && l.clk.Now().Sub(at) < langTTL {
			continue
		}
		client := ""
		if _, chose := l.langs.choice[ch.id]; !chose && ch.kind == private {
			client = string(l.langRecord(ch.id).Client)
		}
		l.speaks("job "+job, c, l.langs.chatLang(ch, client))
	}
}

// speaks fails c, a call of what, when its text or a line of it is a text
// the catalog holds in a language other than want only.
func (l *life) speaks(what string, c Call, want locale.Lang) {
	if c.Text == "" {
		return
	}
	cat := l.app.Catalog()
	for _, part := range append([]string{c.Text}, strings.Split(c.Text, "\n")...) {
		if langs := cat.Speaks(part); len(langs) == 1 && langs[0] != want {
			l.fail("language", "%s: %s to %d speaks %s, not the chat's %s: %q", what, c.Method, c.SentChat, langs[0], want, part)
			return
		}
	}
}

// checkInlineLanguage: an inline query's results speak its asker's
// language, wherever they ask: their private chat's choice, else their
// client's. Excused as checkLanguage's, the private chat's change counting.
func (l *life) checkInlineLanguage(d *delivery, calls []Call) {
	asker := d.u.InlineQuery.From
	if at, ok := l.langs.changed[asker.ID]; ok && l.clk.Now().Sub(at) < langTTL {
		return
	}
	want := l.langs.chatLang(&chat{id: asker.ID, kind: private}, asker.LanguageCode)
	for _, c := range calls {
		if !c.OK || c.Method != "answerInlineQuery" || c.QueryID != d.u.InlineQuery.ID {
			continue
		}
		var results []struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Content     struct {
				Text string `json:"message_text"`
			} `json:"input_message_content"`
		}
		if err := json.Unmarshal([]byte(c.Results), &results); err != nil {
			l.fail("answers", "%s: results that do not parse: %v", d.what, err)
			return
		}
		for _, r := range results {
			for _, text := range []string{r.Title, r.Description, r.Content.Text} {
				l.speaks(d.what, Call{Method: c.Method, SentChat: asker.ID, Text: text}, want)
			}
		}
	}
}
