package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// ChatChanged moves every module's state of a chat that moved (a group
// became a supergroup), or forgets it when the chat is gone for the bot:
// what each declares in ChatState, then what its OnChatChange moves, then
// the chat's conversations and timers, so no timer fires at the new id before its module's
// state is there. It is the one place that happens, whichever way the core
// learnt it. Every module's move runs; their errors come back joined.
func (a *App) ChatChanged(ctx context.Context, ch app.ChatChange) error {
	if ch.ChatID == 0 || ch.ChatID == ch.MovedTo {
		return nil
	}
	var errs []error
	if err := a.moveChatState(ctx, langModule, ch); err != nil {
		errs = append(errs, fmt.Errorf("the chat's language: %w", err))
	}
	a.langs.forget(ch.ChatID)
	a.langs.forget(ch.MovedTo)
	for _, m := range a.reg.modules {
		if err := a.moveChatState(ctx, m, ch); err != nil {
			errs = append(errs, fmt.Errorf("module %q: %w", m.Name, err))
		}
		if m.OnChatChange == nil {
			continue
		}
		if err := m.OnChatChange(ctx, ch); err != nil {
			errs = append(errs, fmt.Errorf("module %q: %w", m.Name, err))
		}
	}
	if err := a.convChatChanged(ctx, ch); err != nil {
		errs = append(errs, err)
	}
	if err := a.timers.ChatChanged(ctx, ch); err != nil {
		errs = append(errs, err)
	}
	if ch.MovedTo != 0 {
		a.log.Info("chat moved", "chat_id", ch.ChatID, "to_chat_id", ch.MovedTo, "failed_hooks", len(errs))
	} else {
		a.log.Info("chat gone: its state forgotten", "chat_id", ch.ChatID, "failed_hooks", len(errs))
	}
	return errors.Join(errs...)
}

// chatWatch is the Messenger modules and the core send through: a send's
// answer that says the chat moved or is gone tells the modules at once,
// so no module matches those answers itself.
type chatWatch struct {
	app.Messenger
	a *App
}

var _ app.Messenger = chatWatch{}

func (w chatWatch) Send(ctx context.Context, m app.Message) (*models.Message, error) {
	msg, err := w.Messenger.Send(ctx, m)
	if err == nil && msg != nil && m.ChatID != 0 && msg.Chat.ID != 0 && msg.Chat.ID != m.ChatID {
		// The adapter resent to the supergroup the group became.
		w.changed(ctx, app.ChatChange{ChatID: m.ChatID, MovedTo: msg.Chat.ID})
	}
	w.heard(ctx, m.ChatID, err)
	return msg, err
}

func (w chatWatch) SendPhoto(ctx context.Context, p app.Photo) (*models.Message, error) {
	msg, err := w.Messenger.SendPhoto(ctx, p)
	w.heard(ctx, p.ChatID, err)
	return msg, err
}

func (w chatWatch) Edit(ctx context.Context, e app.Edit) error {
	err := w.Messenger.Edit(ctx, e)
	w.heard(ctx, e.ChatID, err)
	return err
}

// heard acts on what a call's error says of its chat.
func (w chatWatch) heard(ctx context.Context, chat int64, err error) {
	var moved *app.ChatMigratedError
	switch {
	case err == nil || chat == 0:
	case errors.As(err, &moved):
		w.changed(ctx, app.ChatChange{ChatID: moved.From, MovedTo: moved.To})
	case errors.Is(err, app.ErrChatGone):
		w.changed(ctx, app.ChatChange{ChatID: chat})
	}
}

// changed runs the hooks for a change a send revealed. The send's own
// outcome stands whatever they do; a hook that failed is retried when the
// chat is next heard of (the service message, the next send).
func (w chatWatch) changed(ctx context.Context, ch app.ChatChange) {
	if err := w.a.ChatChanged(context.WithoutCancel(ctx), ch); err != nil {
		w.a.log.Warn("a module could not follow the chat's change", "chat_id", ch.ChatID, "to_chat_id", ch.MovedTo, "err", err)
	}
}

// planChatService turns the service messages and member updates that
// change a chat's life, or a member's place in it, into their action; nil
// when u is none of them.
func (a *App) planChatService(u *models.Update) *action {
	switch {
	case u.Message != nil && u.Message.MigrateToChatID != 0:
		return a.chatAction("chat moved", app.ChatChange{ChatID: u.Message.Chat.ID, MovedTo: u.Message.MigrateToChatID})
	case u.Message != nil && u.Message.MigrateFromChatID != 0:
		return a.chatAction("chat moved", app.ChatChange{ChatID: u.Message.MigrateFromChatID, MovedTo: u.Message.Chat.ID})
	case u.MyChatMember != nil:
		return a.planMembership(u.MyChatMember)
	case u.Message != nil && u.Message.LeftChatMember != nil:
		m := app.MemberLeft{ChatID: u.Message.Chat.ID, UserID: u.Message.LeftChatMember.ID}
		return &action{module: storage.CoreNamespace, name: "member left", run: func(ctx context.Context) error {
			return a.MemberLeft(ctx, m)
		}}
	}
	return nil
}

// MemberLeft tells every module's OnMemberLeft that a user left a group
// (the bot itself leaving is a ChatChange, from my_chat_member). Every
// hook runs; their errors come back joined.
func (a *App) MemberLeft(ctx context.Context, m app.MemberLeft) error {
	var errs []error
	for _, mod := range a.reg.modules {
		if mod.OnMemberLeft == nil {
			continue
		}
		if err := mod.OnMemberLeft(ctx, m); err != nil {
			errs = append(errs, fmt.Errorf("module %q: %w", mod.Name, err))
		}
	}
	return errors.Join(errs...)
}

func (a *App) chatAction(name string, ch app.ChatChange) *action {
	return &action{module: storage.CoreNamespace, name: name, run: func(ctx context.Context) error {
		return a.ChatChanged(ctx, ch)
	}}
}

// planMembership acts on the bot's own membership: removed or blocked, the
// chat's state goes; added to a group, it greets with /help's first lines.
// A channel is not greeted: its subscribers cannot send the bot a command.
func (a *App) planMembership(cm *models.ChatMemberUpdated) *action {
	now, was := cm.NewChatMember.Type, cm.OldChatMember.Type
	switch {
	case now == models.ChatMemberTypeBanned || now == models.ChatMemberTypeLeft:
		return a.chatAction("bot removed", app.ChatChange{ChatID: cm.Chat.ID})
	case cm.Chat.Type == models.ChatTypePrivate:
		return nil // unblocked: the user's next command says hello
	case cm.Chat.Type == models.ChatTypeChannel:
		return nil
	case was == models.ChatMemberTypeLeft || was == models.ChatMemberTypeBanned:
		chat := cm.Chat.ID
		// The group hears the language of whoever added the bot.
		lang := locale.FromTelegram(cm.From.LanguageCode)
		return &action{module: storage.CoreNamespace, name: "bot added", chatID: chat, lang: lang, run: func(ctx context.Context) error {
			if err := a.noteAddedBy(ctx, chat, lang); err != nil {
				return err
			}
			if chosen, err := a.chatLang(ctx, chat); err == nil {
				lang = chosen // a group that chose before keeps its choice
			}
			return a.greet(ctx, chat, lang)
		}}
	}
	return nil // a change of rights: nothing to do
}

// greetEvery is how often a group that re-adds the bot is greeted again.
const greetEvery = 24 * time.Hour

// greet sends /help's page to a group that added the bot, once a day at
// most (a mark in the core namespace, taken with CAS across runtimes).
func (a *App) greet(ctx context.Context, chat int64, lang app.Lang) error {
	key := "greeted:" + strconv.FormatInt(chat, 10)
	now := a.now()
	stamp := []byte(strconv.FormatInt(now.UnixNano(), 10))
	var fresh bool
	err := storage.Update(ctx, a.core, key, func(cur []byte) ([]byte, error) {
		at, perr := strconv.ParseInt(string(cur), 10, 64)
		fresh = cur == nil || perr != nil || now.Sub(time.Unix(0, at)) >= greetEvery
		if !fresh {
			return nil, nil
		}
		return stamp, nil
	})
	if err != nil || !fresh {
		return err
	}
	_, err = a.bot.Send(ctx, app.Message{ChatID: chat, Text: a.say(lang, "greet") + "\n\n" + a.reg.HelpText(app.RoleUser, lang), ParseMode: models.ParseModeHTML})
	return err
}
