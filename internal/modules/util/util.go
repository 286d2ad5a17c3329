// Package util is the bot's front door: /start, /help (generated from the
// registry, honouring visibility), /language (the chat's language),
// /timezone (the clock its times are shown on) and
// /info (ids for the owner and admins).
package util

import (
	"context"
	"embed"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Name is the module's name in MODULES.
const Name = "util"

// texts are the module's words (see app.Words).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{
			{Name: "start", Description: "Say hello and show what the bot can do", Handler: func(ctx context.Context, r *app.Request) error {
				_, err := r.ReplyHTML(ctx, r.T("hello")+"\n\n"+d.Registry.HelpText(r.Role, r.Lang))
				return err
			}},
			{Name: "help", Description: "List the commands you can use", Handler: func(ctx context.Context, r *app.Request) error {
				return help(ctx, d.Registry, r)
			}},
			{Name: "language", Description: "Choose the language I speak in this chat", Handler: func(ctx context.Context, r *app.Request) error {
				return language(ctx, d, r)
			}},
			{Name: "timezone", Description: "Choose the time zone times are shown in", Handler: func(ctx context.Context, r *app.Request) error {
				return timezone(ctx, d, r)
			}},
			{Name: "info", Description: "Show chat, topic and sender ids", Visibility: app.Protected, Handler: info},
		},
		Callbacks: []app.Callback{{Prefix: helpPrefix, Handler: func(ctx context.Context, req *app.CallbackRequest) error {
			return helpPage(ctx, d.Registry, req)
		}}, {Prefix: langPrefix, Handler: func(ctx context.Context, req *app.CallbackRequest) error {
			return languagePressed(ctx, d, req)
		}}},
	}, nil
}

// helpPrefix starts the data of /help's module buttons: "help:<module>".
const helpPrefix = "help:"

// helpOnOnePage is the most commands /help lists in one message; past it,
// /help shows one module at a time, with a button per module.
const helpOnOnePage = 15

func help(ctx context.Context, reg app.Registry, r *app.Request) error {
	modules, commands := reg.HelpModules(r.Role)
	if commands <= helpOnOnePage || len(modules) < 2 {
		_, err := r.ReplyHTML(ctx, reg.HelpText(r.Role, r.Lang))
		return err
	}
	page, _ := reg.HelpPage(r.Role, modules[0], r.Lang)
	_, err := r.ReplyMessage(ctx, app.Message{Text: page, ParseMode: models.ParseModeHTML, Keyboard: helpKeyboard(modules, modules[0])})
	return err
}

// helpPage turns the pressed /help message to a module's page. The
// presser's role decides what it lists: a user pressing an admin's /help
// sees the commands a user may run.
func helpPage(ctx context.Context, reg app.Registry, req *app.CallbackRequest) error {
	data, err := app.ParseCallback(helpPrefix, req.Data, 1, 1)
	if err != nil {
		return req.Answer(ctx, req.T(app.StaleButton))
	}
	module := data.Fields[0]
	page, ok := reg.HelpPage(req.Role, module, req.Lang)
	if !ok {
		return req.Answer(ctx, req.T("module_off"))
	}
	modules, _ := reg.HelpModules(req.Role)
	return req.EditMessage(ctx, app.Edit{Text: page, ParseMode: models.ParseModeHTML, Keyboard: helpKeyboard(modules, module)})
}

// helpKeyboard has a button per module, three to a row; the module shown
// is marked.
func helpKeyboard(modules []string, current string) *models.InlineKeyboardMarkup {
	var rows [][]app.Button
	for i, m := range modules {
		if i%3 == 0 {
			rows = append(rows, nil)
		}
		label := m
		if m == current {
			label = "• " + m
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], app.Button{Text: label, Data: app.Data(helpPrefix, m)})
	}
	return app.MustKeyboard(rows...) // module names are at most 32 bytes: the data fits
}

func info(ctx context.Context, r *app.Request) error {
	_, err := r.Reply(ctx, r.T("info", app.Args{"Chat": r.ChatID, "Thread": r.ThreadID, "User": r.UserID}))
	return err
}
