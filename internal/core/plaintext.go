package core

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// planText plans a plain message (no command): the routing rule of
// app.TextRequest. In a group only a reply to one of the bot's messages
// is heard, and only when a module hears plain messages at all, so a
// chatty group costs the store nothing.
func (a *App) planText(ctx context.Context, u *models.Update, msg *models.Message, rd app.Words) (*action, error) {
	text := msg.Text
	if text == "" {
		text = msg.Caption
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "", msg.From == nil && msg.SenderChat == nil:
		return nil, nil // a sticker, a service message
	case msg.SenderChat == nil && msg.From.IsBot:
		return nil, nil // another bot (an anonymous admin's placeholder is one too, with its chat)
	}
	private := msg.Chat.Type == models.ChatTypePrivate
	if !private {
		to := msg.ReplyToMessage
		if to == nil || to.From == nil || !to.From.IsBot || !a.hearsText() {
			return nil, nil
		}
		me, err := a.botUsername(ctx)
		if err != nil {
			return nil, err
		}
		if !app.RepliesToBot(msg, me) {
			return nil, nil
		}
	}
	sender := app.SenderOf(msg)
	base := app.Request{
		Update: u, Message: msg, Args: text, ChatID: msg.Chat.ID, ThreadID: topicOf(msg),
		Sender: sender, UserID: sender.ID, Private: private, Role: a.roleOf(sender.ID),
		Words: rd,
	}
	act := &action{module: storage.CoreNamespace, name: "text", chatID: base.ChatID, threadID: base.ThreadID}
	act.run = func(ctx context.Context) error {
		err := a.routeText(ctx, act, base, text)
		if errors.Is(err, errPanicked) {
			return nil // apologised: the same input would only panic again
		}
		return err
	}
	return act, nil
}

// hearsText reports whether an enabled module takes plain messages.
func (a *App) hearsText() bool { return slices.ContainsFunc(a.reg.modules, hearsText) }

// routeText gives the message to the conversation waiting for its sender
// there, else to the first module's OnText that takes it, else (in a
// private chat) a hint.
func (a *App) routeText(ctx context.Context, act *action, base app.Request, text string) error {
	key := convKey(base.ChatID, base.ThreadID, base.UserID)
	var rec convRecord
	switch err := a.core.GetJSON(ctx, key, &rec); {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return err
	}
	if kept, moved := rec.Replay(base.Update.ID); moved {
		// Delivered again: this message already moved its conversation,
		// and its run failed or died after (before its question reached
		// the user, say). Its step runs again from the wait the message
		// answered: the step's changes, once per update, are not made
		// again; what it says is said again, as a command's reply is.
		if w := kept.Answered; w != nil {
			if mod := a.moduleNamed(w.Module); mod != nil && mod.Steps[w.Step] != nil {
				return a.runStep(ctx, act, mod, key, convRecord{Module: w.Module, Step: w.Step, State: w.State, Seq: w.Seq}, base, text)
			}
		}
		// Its run may have failed before the wait's timer was set.
		return a.ensureTimer(ctx, key, rec)
	}
	if rec.waiting(a.now()) {
		if mod := a.moduleNamed(rec.Module); mod != nil && mod.Steps[rec.Step] != nil {
			return a.runStep(ctx, act, mod, key, rec, base, text)
		}
		// Its module or step is gone (MODULES, a new version): end it.
		if err := a.endStep(ctx, key, rec.Module, rec.Seq, base.Update.ID); err != nil {
			return err
		}
	}
	for _, m := range a.reg.modules {
		if m.OnText == nil {
			continue
		}
		r := base
		r.Module, r.Words = m.Name, a.rewords(m.Name, base.Words)
		req := app.NewTextRequest(app.NewRequest(a.bot, r), text, app.Conversation{}, nil)
		var taken bool
		err := a.safely(ctx, m.Name, "text", base.Lang, base.ChatID, base.ThreadID, func() (err error) {
			taken, err = m.OnText(ctx, req)
			return err
		})
		if err != nil || taken {
			act.module, act.name = m.Name, "text "+m.Name
			return err
		}
	}
	if !base.Private {
		return nil
	}
	_, err := a.bot.Send(ctx, app.Message{ChatID: base.ChatID, ThreadID: base.ThreadID, Text: a.say(base.Lang, "plain_hint")})
	return err
}

// runStep runs the step the conversation waits at, then ends the
// conversation unless the step moved or ended it.
func (a *App) runStep(ctx context.Context, act *action, mod *app.Module, key string, rec convRecord, base app.Request, text string) error {
	act.module, act.name = mod.Name, mod.Name+" step "+rec.Step
	r := base
	r.Module, r.Words = mod.Name, a.rewords(mod.Name, base.Words)
	c := app.Conversation{ChatID: r.ChatID, ThreadID: r.ThreadID, UserID: r.UserID, Step: rec.Step, State: rec.State, Update: r.Update.ID, Seq: rec.Seq}
	req := app.NewTextRequest(app.NewRequest(a.bot, r), text, c, moduleConversations{a: a, module: mod.Name})
	if err := a.safely(ctx, mod.Name, act.name, r.Lang, r.ChatID, r.ThreadID, func() error { return mod.Steps[rec.Step](ctx, req) }); err != nil {
		return err
	}
	return a.endStep(ctx, key, mod.Name, rec.Seq, r.Update.ID)
}

// planCancel is the engine's /cancel: it ends the conversation the sender
// holds in the chat and topic, whichever module holds it. With none, a
// private chat is told so; a group hears nothing (other bots take /cancel).
func (a *App) planCancel(u *models.Update, msg *models.Message, rd app.Words) *action {
	sender := app.SenderOf(msg)
	chat, thread := msg.Chat.ID, topicOf(msg)
	key := convKey(chat, thread, sender.ID)
	return &action{module: storage.CoreNamespace, name: "/" + cancelCommand, chatID: chat, threadID: thread, run: func(ctx context.Context) error {
		ch, err := a.changeConv(ctx, key, u.ID, func(r *convRecord) (convChange, error) {
			if r.Module == "" {
				return convChange{}, errNoChange
			}
			return r.end(key), nil
		})
		if err != nil {
			return err
		}
		text := a.say(rd.Lang, "nothing_to_cancel")
		switch {
		case ch.Prev != 0:
			text = a.say(rd.Lang, "cancelled")
			a.tellEnded(ctx, ch, app.EndCancelled)
		case msg.Chat.Type != models.ChatTypePrivate:
			return nil // a group's /cancel may be for another bot
		}
		_, err = a.bot.Send(ctx, app.Message{ChatID: chat, ThreadID: thread, Text: text})
		return err
	}}
}
