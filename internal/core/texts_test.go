package core_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// probe is a module that keeps its Deps, to speak to a chat as a timer or
// a push does: with no request.
func probe(deps *app.Deps) app.Factory {
	texts := fstest.MapFS{
		"locales/en.toml": {Data: []byte("due = \"Time's up\"\n")},
		"locales/vi.toml": {Data: []byte("due = \"Đến giờ rồi\"\n")},
	}
	return app.Factory{Name: "probe", New: func(d app.Deps) (*app.Module, error) {
		*deps = d
		return &app.Module{Name: "probe", Texts: texts}, nil
	}}
}

// A push to a chat speaks the chat's language: its choice, else (a
// private chat) its user's client's as last seen, else (a group) who added
// the bot's, else English.
func TestWorkWithNoRequestSpeaksTheChatsLanguage(t *testing.T) {
	var d app.Deps
	b := apptest.New(t, []app.Factory{probe(&d)})
	due := func(chat int64) string {
		t.Helper()
		w, err := d.Texts.Chat(t.Context(), chat)
		if err != nil {
			t.Fatal(err)
		}
		return w.T("due")
	}
	if got := due(apptest.PrivateChat); got != "Time's up" {
		t.Fatalf("a chat never seen: %q", got)
	}
	b.Speaks(apptest.User, "vi")
	_ = b.Say(apptest.PrivateChat, apptest.User, "hello")
	if got := due(apptest.PrivateChat); got != "Đến giờ rồi" {
		t.Fatalf("a private chat whose client is Vietnamese: %q", got)
	}
	if err := d.Texts.Choose(t.Context(), apptest.PrivateChat, app.English); err != nil {
		t.Fatal(err)
	}
	if got := due(apptest.PrivateChat); got != "Time's up" {
		t.Fatalf("after the user chose English: %q", got)
	}
	added := telegramtest.RecordedUpdate(t, "update_my_chat_member_added_group.json")
	added.MyChatMember.Chat.ID, added.MyChatMember.From.LanguageCode = apptest.Group, "vi-VN"
	if err := b.Handle(added); err != nil {
		t.Fatal(err)
	}
	if got := due(apptest.Group); got != "Đến giờ rồi" {
		t.Fatalf("a group a Vietnamese user added: %q", got)
	}
	if err := d.Texts.Choose(t.Context(), apptest.Group, "fr"); err == nil {
		t.Fatal("a language the bot does not speak was chosen")
	}
}

// /help lists a module's inline query in the reader's language when its
// HelpKey is in the catalog, its Help otherwise.
func TestAnInlineQuerysHelpLineIsInTheReadersLanguage(t *testing.T) {
	texts := fstest.MapFS{
		"locales/en.toml": {Data: []byte("card = \"BTC - its price card\"\n")},
		"locales/vi.toml": {Data: []byte("card = \"BTC - thẻ giá của nó\"\n")},
	}
	f := app.Factory{Name: "cards", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "cards", Texts: texts,
			Commands: []app.Command{{Name: "card", Description: "A card", Handler: func(context.Context, *app.Request) error { return nil }}},
			Inline: []app.Inline{{Match: func(string) bool { return true }, Help: "BTC - its price card", HelpKey: "card",
				Handler: func(context.Context, *app.InlineRequest) ([]app.InlineResult, error) { return nil, nil }}},
		}, nil
	}}
	b := apptest.New(t, []app.Factory{f})
	for lang, want := range map[app.Lang]string{app.English: "BTC - its price card", app.Vietnamese: "BTC - thẻ giá của nó"} {
		page, _ := b.App.Registry().HelpPage(app.RoleUser, "cards", lang)
		if !strings.Contains(page, "<i>inline</i> "+want) {
			t.Errorf("the %s page: %q, want the inline line %q", lang, page, want)
		}
	}
}

// The Mini App hears a user as their private chat does: their choice,
// else the client's language_code the page was opened with, else English.
func TestAUsersPageSpeaksTheirPrivateChatsChoiceElseTheirClients(t *testing.T) {
	var d app.Deps
	b := apptest.New(t, []app.Factory{probe(&d)})
	for _, tt := range []struct {
		client string
		want   app.Lang
	}{{"vi", app.Vietnamese}, {"en-US", app.English}, {"", app.English}} {
		if got := b.App.UserLang(t.Context(), apptest.User, tt.client); got != tt.want {
			t.Errorf("no choice, client %q: %s, want %s", tt.client, got, tt.want)
		}
	}
	if err := d.Texts.Choose(t.Context(), apptest.PrivateChat, app.Vietnamese); err != nil {
		t.Fatal(err)
	}
	if got := b.App.UserLang(t.Context(), apptest.User, "en"); got != app.Vietnamese {
		t.Errorf("after choosing Vietnamese, an English client's page: %s", got)
	}
}
