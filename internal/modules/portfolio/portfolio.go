// Package portfolio opens the Mini App: /portfolio answers with a button
// that opens the page of the user's coin, gold and stock portfolios. In a
// private chat it is a web_app button; Telegram allows those nowhere else,
// so in a group it is a link to the bot's Main Mini App with the group as
// its start parameter, which the page uses to show the group's board.
package portfolio

import (
	"context"
	"embed"
	"fmt"
	"strconv"
	"sync"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Name is the module's name in MODULES.
const Name = "portfolio"

// Factory is the module.
var Factory = app.Factory{Name: Name, New: New}

// texts are the module's words.
//
//go:embed locales/*.toml
var texts embed.FS

type module struct {
	appURL func() string
	bot    app.Messenger
	mu     sync.Mutex
	name   string // the bot's @username, once asked
}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	m := &module{appURL: d.AppURL, bot: d.Bot}
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{
			{Name: "portfolio", Description: "Your portfolios, charts and trades in an app", Handler: m.open},
		},
	}, nil
}

func (m *module) open(ctx context.Context, r *app.Request) error {
	if r.Private {
		url := m.appURL()
		if url == "" {
			_, err := r.Reply(ctx, r.T("no_url"))
			return err
		}
		_, err := r.ReplyKeyboard(ctx, r.T("open"), keyboard(models.InlineKeyboardButton{Text: r.T("button"), WebApp: &models.WebAppInfo{URL: url}}))
		return err
	}
	name, err := m.username(ctx)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, r.T("group"), keyboard(models.InlineKeyboardButton{Text: r.T("button"), URL: GroupLink(name, r.ChatID)}))
	return err
}

// GroupLink opens the bot's Main Mini App with chat as its start
// parameter (Telegram passes it to the page as start_param).
func GroupLink(bot string, chat int64) string {
	return fmt.Sprintf("https://t.me/%s?startapp=%s", bot, strconv.FormatInt(chat, 10))
}

func keyboard(b models.InlineKeyboardButton) *models.InlineKeyboardMarkup {
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{b}}}
}

func (m *module) username(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.name != "" {
		return m.name, nil
	}
	me, err := m.bot.GetMe(ctx)
	if err != nil {
		return "", fmt.Errorf("portfolio: the bot's username: %w", err)
	}
	m.name = me.Username
	return m.name, nil
}
