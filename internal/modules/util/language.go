package util

import (
	"context"
	"fmt"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// langPrefix starts the data of /language's buttons: "lang:<code>".
const langPrefix = "lang:"

// languageNames are how each language calls itself, on its button.
var languageNames = map[app.Lang]string{app.English: "English", app.Vietnamese: "Tiếng Việt"}

// language is /language: with a language ("/language vi") it chooses
// it, without one it offers a button per language. A private chat's choice
// is its user's; a group's is its admins' to make.
func language(ctx context.Context, d app.Deps, r *app.Request) error {
	if r.Args == "" {
		_, err := r.ReplyMessage(ctx, app.Message{Text: r.T("language_ask"), Keyboard: languageKeyboard()})
		return err
	}
	lang, ok := locale.Parse(r.Args)
	if !ok {
		_, err := r.Reply(ctx, r.T("language_unknown"))
		return err
	}
	may, err := mayChoose(ctx, d, r.ChatID, r.UserID)
	if err != nil {
		return err
	}
	if !may {
		_, err := r.Reply(ctx, r.T("language_admins_only"))
		return err
	}
	if err := d.Texts.Choose(ctx, r.ChatID, lang); err != nil {
		return err
	}
	_, err = r.Reply(ctx, r.In(lang).T("language_set"))
	return err
}

// languagePressed chooses the pressed language and says so in it.
func languagePressed(ctx context.Context, d app.Deps, req *app.CallbackRequest) error {
	data, err := app.ParseCallback(langPrefix, req.Data, 1, 1)
	if err != nil {
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	lang, ok := locale.Parse(data.Fields[0])
	if !ok {
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	may, err := mayChoose(ctx, d, req.ChatID, req.UserID)
	if err != nil {
		return err
	}
	if !may {
		return req.Answer(ctx, req.T("language_admins_only"))
	}
	if err := d.Texts.Choose(ctx, req.ChatID, lang); err != nil {
		return err
	}
	return req.Edit(ctx, req.In(lang).T("language_set"), nil)
}

// mayChoose reports whether user may choose chat's language: anyone in a
// private chat, a group's admins (an anonymous admin speaks as the group)
// in a group.
func mayChoose(ctx context.Context, d app.Deps, chat, user int64) (bool, error) {
	if chat > 0 || user == chat {
		return true, nil
	}
	ms, err := d.Bot.ChatMember(ctx, chat, user)
	if err != nil && app.Permanent(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ask whether user %d administers chat %d: %w", user, chat, err)
	}
	return ms == app.Admin, nil
}

func languageKeyboard() *models.InlineKeyboardMarkup {
	var row []app.Button
	for _, l := range locale.Langs {
		row = append(row, app.Button{Text: languageNames[l], Data: app.Data(langPrefix, string(l))})
	}
	return app.MustKeyboard(row)
}
