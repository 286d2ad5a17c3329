package core

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// action is the one thing an update asks for.
type action struct {
	module, name string
	chatID       int64
	threadID     int
	run          func(ctx context.Context) error
	event        *app.CommandEvent // what the hooks hear once the update ends; nil: not a command
	press        *answerOnce       // a module's button press: answered once over its runs
	failed       bool              // ended without retry, yet not handled: counted as failed
	// oneShot: run at most once; a run again after one that did not record
	// its end counts as answered (an inline query, gone by then).
	oneShot bool
	// lang is the language the update is answered in, the engine's
	// apology included.
	lang app.Lang
}

// plan decides what an update asks for, without side effects (except
// resolving the bot's username once). nil means nothing to do.
func (a *App) plan(ctx context.Context, u *models.Update) (*action, error) {
	if act := a.planChatService(u); act != nil {
		return act, nil
	}
	var (
		act *action
		err error
		rd  = a.readerOf(ctx, u)
	)
	switch {
	case u.Message != nil:
		act, err = a.planCommand(ctx, u, u.Message, rd)
	case u.CallbackQuery != nil:
		act = a.planCallback(u, rd)
	case u.InlineQuery != nil:
		act = a.planInline(u, rd)
	}
	if act != nil {
		act.lang = rd.Lang
		a.keepClientLang(act, u)
	}
	return act, err
}

func (a *App) planCommand(ctx context.Context, u *models.Update, msg *models.Message, rd app.Words) (*action, error) {
	if msg.IsAutomaticForward {
		// A linked channel's post, copied into its discussion group by
		// Telegram: written for the channel, it asks nothing of the group.
		return nil, nil
	}
	pc, ok := parseCommand(msg)
	if !ok {
		return a.planText(ctx, u, msg, rd)
	}
	if pc.mention != "" {
		me, err := a.botUsername(ctx)
		if err != nil {
			return nil, err
		}
		if !strings.EqualFold(pc.mention, me) {
			return nil, nil // addressed to another bot
		}
	}
	private := msg.Chat.Type == models.ChatTypePrivate
	sender := app.SenderOf(msg) // the one identity the request carries
	userID := sender.ID
	chat, thread := msg.Chat.ID, topicOf(msg)
	if pc.name == cancelCommand {
		return a.planCancel(u, msg, rd), nil
	}
	rt, known := a.reg.commands[pc.name]
	role := a.roleOf(userID)
	if !known {
		if !private {
			return nil, nil // groups hear many commands meant for other bots
		}
		return &action{module: storage.CoreNamespace, name: "unknown", chatID: chat, run: func(ctx context.Context) error {
			_, err := a.bot.Send(ctx, app.Message{ChatID: chat, Text: a.say(rd.Lang, "unknown_command")})
			return err
		}}, nil
	}
	if !rt.cmd.Visibility.May(role) {
		a.log.Debug("command denied", "command", pc.name, "user_id", userID)
		return nil, nil // no reply: a hidden command stays hidden
	}
	req := app.NewRequest(a.bot, app.Request{
		Update: u, Message: msg, Module: rt.module.Name, Command: pc.name, Args: pc.args,
		ChatID: chat, ThreadID: thread, Sender: sender, UserID: userID, Private: private, Role: role,
		Words: a.rewords(rt.module.Name, rd),
	})
	return &action{
		module: rt.module.Name, name: "/" + pc.name, chatID: chat, threadID: thread,
		run: func(ctx context.Context) error {
			err := a.safely(ctx, rt.module.Name, "/"+pc.name, rd.Lang, chat, thread, func() error { return rt.cmd.Handler(ctx, req) })
			if errors.Is(err, errPanicked) {
				return nil // apologised: the same input would only panic again
			}
			return err
		},
		event: &app.CommandEvent{Module: rt.module.Name, Command: pc.name, ChatID: chat, UserID: userID, Username: sender.Username, At: a.now(), Update: u.ID},
	}, nil
}

func (a *App) planCallback(u *models.Update, rd app.Words) *action {
	q := u.CallbackQuery
	press := &answerOnce{Messenger: a.bot, queryID: q.ID}
	// A press names the real user, an anonymous admin's too (ActsFor).
	sender := app.UserActor(&q.From)
	r := app.CallbackRequest{Update: u, Query: q, Data: q.Data, Sender: sender, UserID: sender.ID, Role: a.roleOf(sender.ID)}
	switch m := q.Message; {
	case m.Message != nil:
		r.ChatID, r.ThreadID, r.MessageID = m.Message.Chat.ID, topicOf(m.Message), m.Message.ID
	case m.InaccessibleMessage != nil:
		// The message is too old for Telegram to show the bot, but it
		// names where it is: an edit of it still works.
		r.ChatID, r.MessageID = m.InaccessibleMessage.Chat.ID, m.InaccessibleMessage.MessageID
	default:
		// A message sent in inline mode (inline_message_id): the bot's
		// inline results carry no callback buttons, so it is not one of
		// its keyboards.
		return &action{module: storage.CoreNamespace, name: "callback", run: func(ctx context.Context) error {
			return press.AnswerCallback(ctx, q.ID, a.say(rd.Lang, "inline_button"))
		}}
	}
	req := app.NewCallbackRequest(press, r)
	cr, ok := a.reg.callbackFor(q.Data)
	if !ok {
		// The keyboard is stale or foreign: stop the spinner, say so.
		return &action{module: storage.CoreNamespace, name: "callback", run: func(ctx context.Context) error {
			return press.AnswerCallback(ctx, q.ID, a.say(rd.Lang, "stale_button"))
		}}
	}
	req.Module = cr.module.Name
	req.Words = a.rewords(cr.module.Name, rd)
	name := "callback " + cr.cb.Prefix
	act := &action{module: cr.module.Name, name: name, chatID: req.ChatID, threadID: req.ThreadID, press: press}
	act.run = func(ctx context.Context) error {
		err := a.safely(ctx, cr.module.Name, name, rd.Lang, 0, 0, func() error { return cr.cb.Handler(ctx, req) })
		return a.endPress(ctx, act, err)
	}
	return act
}

// endPress gives the press its one answer, whatever the handler did: a
// silent one after success, an apology toast after a failure. A press is
// not tried again: the user sees the toast and may press again, where a
// retry minutes later would answer a spinner long gone (Telegram refuses a
// second answer) and act on a stale screen. A press that acted but left
// work owed (app.Unfinished) is the exception: answered silently, its
// update runs again, and the run again finds it answered (see finish).
// A press that failed is counted as failed, not handled.
func (a *App) endPress(ctx context.Context, act *action, err error) error {
	press, text := act.press, ""
	switch {
	case errors.Is(err, app.ErrUnfinished):
		a.log.Warn("button press acted but did not finish; run again", "action", act.name, "err", err)
	case errors.Is(err, storage.ErrUnreadable):
		a.reportDamage(ctx, act.module, err, "action", act.name)
		text = a.say(act.lang, "damaged_toast")
		act.failed, err = true, nil
	case err != nil:
		text = a.say(act.lang, "press_failed")
		a.log.Error("button press failed; answered with an apology", "action", act.name, "err", err)
		act.failed, err = true, nil
	}
	if !press.answered() {
		if aerr := press.AnswerCallback(ctx, press.queryID, text); aerr != nil && err == nil {
			return aerr
		}
	}
	return err
}

// errPanicked: the handler panicked; safely logged it (and apologised in
// the chat, when there is one).
var errPanicked = errors.New("the handler panicked")

// safely runs a handler, turning a panic into a log line, an apology in
// chat (when not 0) and errPanicked.
func (a *App) safely(ctx context.Context, module, name string, lang app.Lang, chat int64, thread int, f func() error) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		a.log.Error("handler panicked", "module", module, "action", name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		a.apologise(ctx, lang, chat, thread)
		err = errPanicked
	}()
	return f()
}

// runHooks tells the modules' OnCommand hooks that a command was handled,
// before its update is recorded done: a hook counts (stats), and a crash
// between the two counts the update again rather than never
// (docs/delivery.md). A hook that keeps failing is logged, not owed.
func (a *App) runHooks(ctx context.Context, id int64, ev app.CommandEvent) {
	for _, m := range a.reg.modules {
		if m.OnCommand == nil {
			continue
		}
		err := a.afterRun(ctx, id, "count the command in "+m.Name, func(ctx context.Context) (err error) {
			defer func() {
				if r := recover(); r != nil {
					a.log.Error("command hook panicked", "module", m.Name, "panic", fmt.Sprint(r))
				}
			}()
			return m.OnCommand(ctx, ev)
		})
		if err != nil {
			a.log.Error("command hook failed; the command is not counted", "module", m.Name, "update_id", id, "err", err)
		}
	}
}

// topicOf is the forum topic of a message: message_thread_id also marks
// reply threads in ordinary groups, where sending to it fails.
func topicOf(m *models.Message) int {
	if m.IsTopicMessage {
		return m.MessageThreadID
	}
	return 0
}

// apologise tells a chat (none: 0) that its update was not handled.
func (a *App) apologise(ctx context.Context, lang app.Lang, chat int64, thread int) {
	if chat == 0 {
		return
	}
	if _, err := a.bot.Send(ctx, app.Message{ChatID: chat, ThreadID: thread, Text: a.say(lang, "apology")}); err != nil {
		a.log.Warn("could not apologise", "err", err)
	}
}
