package telegram

import (
	"context"
	"errors"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Send sends a text message, cut to Telegram's limit by app.Fit. A group
// that became a supergroup is sent to once more, at its new id: the message
// returned is then the supergroup's (its Chat.ID is not m.ChatID): how the
// caller learns of the move. If that resend fails too, the error is a
// *app.ChatMigratedError wrapping the resend's.
func (c *Client) Send(ctx context.Context, m app.Message) (*models.Message, error) {
	msg, err := c.send(ctx, m)
	var mig *app.ChatMigratedError
	if !errors.As(err, &mig) {
		return msg, err
	}
	c.chatMigrated(mig)
	m.ChatID = mig.To
	if msg, err = c.send(ctx, m); err != nil {
		return nil, &app.ChatMigratedError{From: mig.From, To: mig.To, Resent: err}
	}
	return msg, nil
}

func (c *Client) send(ctx context.Context, m app.Message) (*models.Message, error) {
	m.Text, m.ParseMode = app.Fit(m.Text, m.ParseMode)
	p := &bot.SendMessageParams{
		ChatID:          m.ChatID,
		MessageThreadID: m.ThreadID,
		Text:            m.Text,
		ParseMode:       m.ParseMode,
	}
	if m.Keyboard != nil { // a nil pointer in the interface would send "reply_markup": null
		p.ReplyMarkup = m.Keyboard
	} else if m.ForceReply {
		p.ReplyMarkup = &models.ForceReply{ForceReply: true, Selective: true}
	}
	if m.ReplyTo != 0 {
		p.ReplyParameters = &models.ReplyParameters{MessageID: m.ReplyTo, AllowSendingWithoutReply: true}
	}
	if m.NoPreview {
		p.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: bot.True()}
	}
	return call(ctx, c, "sendMessage", m.ChatID, m.Bulk, func(ctx context.Context) (*models.Message, error) {
		return c.bot.SendMessage(ctx, p)
	})
}

// chatMigrated logs a move: the caller hears of it from what the call
// returns (the core's chat watch moves the chat's state).
func (c *Client) chatMigrated(mig *app.ChatMigratedError) {
	c.log.Info("telegram chat migrated", "from_chat_id", mig.From, "to_chat_id", mig.To)
}

// Edit rewrites a message's text and keyboard. Telegram refuses an edit
// to the same content ("message is not modified"): that is a double tap
// or a refresh with nothing new, done already, so no error. An edit in a
// group that became a supergroup is not resent (its messages have other
// ids there): the error says where the chat went.
func (c *Client) Edit(ctx context.Context, e app.Edit) error {
	e.Text, e.ParseMode = app.Fit(e.Text, e.ParseMode)
	p := &bot.EditMessageTextParams{ChatID: e.ChatID, MessageID: e.MessageID, Text: e.Text, ParseMode: e.ParseMode}
	if e.Keyboard != nil {
		p.ReplyMarkup = e.Keyboard
	}
	if e.NoPreview {
		p.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: bot.True()}
	}
	_, err := call(ctx, c, "editMessageText", e.ChatID, false, func(ctx context.Context) (*models.Message, error) {
		return c.bot.EditMessageText(ctx, p)
	})
	return c.edited(err)
}

// AnswerCallback acknowledges a callback query, optionally with a toast.
func (c *Client) AnswerCallback(ctx context.Context, queryID, text string) error {
	_, err := call(ctx, c, "answerCallbackQuery", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: queryID, Text: text})
	})
	return err
}

// SetCommands publishes a command menu, for its scope and language.
func (c *Client) SetCommands(ctx context.Context, m app.Menu) error {
	p := &bot.SetMyCommandsParams{Commands: m.Commands, LanguageCode: m.Lang}
	if m.Groups {
		p.Scope = &models.BotCommandScopeAllGroupChats{}
	}
	_, err := call(ctx, c, "setMyCommands", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.SetMyCommands(ctx, p)
	})
	return err
}

// GetMe returns the bot's own user.
func (c *Client) GetMe(ctx context.Context) (*models.User, error) {
	return call(ctx, c, "getMe", 0, false, c.bot.GetMe)
}

// ChatMember asks Telegram what userID is in chatID now: its owner or an
// administrator (app.Admin), a member or restricted yet still one
// (app.Member), or not in it. It is no send: chat id 0 keeps it out of the
// group's send pace, and an answer that the chat or the user is unknown
// says nothing of whether the bot may write there.
func (c *Client) ChatMember(ctx context.Context, chatID, userID int64) (app.Membership, error) {
	m, err := call(ctx, c, "getChatMember", 0, false, func(ctx context.Context) (*models.ChatMember, error) {
		return c.bot.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: chatID, UserID: userID})
	})
	if err != nil {
		return app.NotMember, err
	}
	switch m.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeAdministrator:
		return app.Admin, nil
	case models.ChatMemberTypeMember:
		return app.Member, nil
	case models.ChatMemberTypeRestricted:
		if m.Restricted != nil && m.Restricted.IsMember {
			return app.Member, nil
		}
	}
	return app.NotMember, nil
}

// DeleteWebhook removes any webhook so getUpdates can be used; with
// dropPending false, updates Telegram already holds are kept.
func (c *Client) DeleteWebhook(ctx context.Context, dropPending bool) error {
	_, err := call(ctx, c, "deleteWebhook", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.DeleteWebhook(ctx, &bot.DeleteWebhookParams{DropPendingUpdates: dropPending})
	})
	return err
}

// SetWebhook points Telegram at url, with the secret it will send back in
// X-Telegram-Bot-Api-Secret-Token.
func (c *Client) SetWebhook(ctx context.Context, url, secret string, allowed []string) error {
	_, err := call(ctx, c, "setWebhook", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.SetWebhook(ctx, &bot.SetWebhookParams{URL: url, SecretToken: secret, AllowedUpdates: allowed})
	})
	return err
}

// GetWebhookInfo reports the webhook and Telegram's pending update count.
func (c *Client) GetWebhookInfo(ctx context.Context) (*models.WebhookInfo, error) {
	return call(ctx, c, "getWebhookInfo", 0, false, c.bot.GetWebhookInfo)
}

// edited reads an edit's answer, whatever it edited: the same content again
// is no error (a double tap); an upgraded group's answer is logged and returned.
func (c *Client) edited(err error) error {
	var refused *APIError
	var mig *app.ChatMigratedError
	switch {
	case errors.As(err, &refused) && strings.Contains(refused.Description, "message is not modified"):
		return nil
	case errors.As(err, &mig):
		c.chatMigrated(mig)
	}
	return err
}
