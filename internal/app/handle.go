package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// UpdateBudget bounds the handling of one update. Telegram gives up on a
// webhook answer after about 60 s and delivers the update again, so the
// answer (a 5xx for an update that overran, so that it is redelivered) must
// come well before that. Invariants: UpdateBudget < Telegram's ~60 s <
// dedupStale, and the Lambda function's timeout exceeds UpdateBudget.
const UpdateBudget = 45 * time.Second

// defaultBudget is UpdateBudget, shorter in testkit builds (with their
// shorter dedupStale), so a run always ends before its claim turns stale.
var defaultBudget = UpdateBudget

// recordBudget bounds one try at recording an update's outcome after its
// run; recordTries tries are made. A record that never lands leaves the
// update "running" until dedupStale, when a redelivery runs it again: the
// one case of a handled update handled twice, so a slow store gets more
// than one chance. UpdateBudget + recordTries*recordBudget stays below
// dedupStale and the Lambda timeout.
const (
	recordBudget = 5 * time.Second
	recordTries  = 3
	// RecordTime bounds recording an outcome, every try and pause between.
	RecordTime = recordTries*recordBudget + time.Second
)

// ErrInFlight: the update is being handled elsewhere (another instance, or
// a run that died and whose claim is not stale yet). It is not handled:
// the runtime must not acknowledge it (the poller keeps its offset, the
// webhook answers 5xx), so it comes again until it is done or taken over.
var ErrInFlight = errors.New("update being handled elsewhere")

// Replies the core itself sends.
const (
	apologyText = "Sorry, something went wrong while handling that. Please try again later."
	unknownText = "Unknown command. Send /help to see what I can do."
)

// HandleUpdate turns one update into its effects. It returns an error when
// the update could not be handled (storage down, a handler failed), so the
// runtime can retry it: the poller keeps its offset, the webhook answers 500.
// A redelivered update that was already handled is skipped.
func (a *App) HandleUpdate(ctx context.Context, u *models.Update) error {
	if u == nil {
		return nil
	}
	kind := updateKind(u)
	act, err := a.plan(ctx, u)
	switch {
	case err != nil:
		a.metrics.Update(kind, metrics.Failed)
		return err
	case act == nil:
		a.metrics.Update(kind, metrics.Ignored)
		return nil
	}
	log := updateLog{l: a.log, id: u.ID, act: act}
	ctx, cancel := context.WithTimeout(ctx, a.budget)
	defer cancel()
	res, claimed, err := a.claim(ctx, u.ID)
	if err != nil {
		a.metrics.Update(kind, metrics.Failed)
		return fmt.Errorf("update %d: %w", u.ID, err)
	}
	switch res {
	case claimDuplicate:
		a.metrics.Update(kind, metrics.Duplicate)
		log.at(ctx, slog.LevelInfo, "update skipped: already handled")
		return nil
	case claimInFlight:
		a.metrics.Update(kind, metrics.InFlight)
		log.at(ctx, slog.LevelInfo, "update not acknowledged: being handled elsewhere")
		return fmt.Errorf("update %d: %w", u.ID, ErrInFlight)
	case claimGiveUp:
		a.metrics.Update(kind, metrics.Dropped)
		log.at(ctx, slog.LevelError, "update dropped after repeated failures", "attempts", dedupMaxAttempts)
		if act.chatID != 0 {
			_, _ = a.bot.Send(ctx, Message{ChatID: act.chatID, ThreadID: act.threadID, Text: apologyText})
		}
		return nil
	}
	log.at(ctx, slog.LevelDebug, "update claimed")
	started := time.Now()
	err = act.run(ctx)
	a.metrics.Handling(act.name, time.Since(started))
	if err != nil && Permanent(err) {
		// Telegram refuses this for good (blocked, gone, too long): trying
		// again would send again and fail again, then apologise in vain.
		log.at(ctx, slog.LevelWarn, "update ended: Telegram refuses the reply; not retried", "class", permanentClass(err), "err", err)
		err = nil
	}
	if act.event != nil {
		act.event.Err = err
	}
	// Record the outcome even when the budget ran out: a failed record
	// lets the redelivery run at once instead of waiting out the stale mark.
	rctx := context.WithoutCancel(ctx)
	finish := func() {
		if ferr := a.finish(rctx, u.ID, claimed, err == nil, errors.Is(err, ErrFlood)); ferr != nil {
			// The work is done; at worst a redelivery is handled once more.
			log.at(ctx, slog.LevelWarn, "could not record the update as handled", "err", ferr)
		}
	}
	switch {
	case act.event == nil || err != nil:
		finish()
	case a.inProcess:
		finish()
		a.runHooks(ctx, *act.event)
	default:
		// Hooks (stats) count the attempt that ended the update, once;
		// their writes are independent of the record, so both go at once.
		var hooks sync.WaitGroup
		a.helpers.Go(&hooks, func() { a.runHooks(ctx, *act.event) })
		finish()
		hooks.Wait()
	}
	if err != nil {
		a.metrics.Update(kind, metrics.Failed)
		log.at(ctx, slog.LevelError, "update failed", "err", err)
		return fmt.Errorf("update %d: %s %s: %w", u.ID, act.module, act.name, err)
	}
	a.metrics.Update(kind, metrics.Handled)
	log.at(ctx, slog.LevelDebug, "update handled")
	return nil
}

// updateKind names an update's kind for metrics: the field Telegram set.
func updateKind(u *models.Update) string {
	switch {
	case u.Message != nil:
		return "message"
	case u.EditedMessage != nil:
		return "edited_message"
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.MyChatMember != nil:
		return "my_chat_member"
	case u.ChannelPost != nil:
		return "channel_post"
	}
	return "other"
}

// updateLog writes an update's log lines, each with its update_id,
// module and action, without building a logger per update: most updates
// log nothing at the configured level.
type updateLog struct {
	l   *slog.Logger
	id  int64
	act *action
}

func (u updateLog) at(ctx context.Context, level slog.Level, msg string, args ...any) {
	if !u.l.Enabled(ctx, level) {
		return
	}
	u.l.Log(ctx, level, msg, append([]any{"update_id", u.id, "module", u.act.module, "action", u.act.name}, args...)...)
}

// action is the one thing an update asks for.
type action struct {
	module, name string
	chatID       int64
	threadID     int
	run          func(ctx context.Context) error
	event        *CommandEvent // what the hooks hear once the update ends; nil: not a command
}

// plan decides what an update asks for, without side effects (except
// resolving the bot's username once). nil means nothing to do.
func (a *App) plan(ctx context.Context, u *models.Update) (*action, error) {
	switch {
	case u.Message != nil:
		return a.planCommand(ctx, u, u.Message)
	case u.CallbackQuery != nil:
		return a.planCallback(u.CallbackQuery), nil
	}
	return nil, nil
}

func (a *App) planCommand(ctx context.Context, u *models.Update, msg *models.Message) (*action, error) {
	pc, ok := parseCommand(msg)
	if !ok {
		return nil, nil
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
	var userID int64
	var username string
	if msg.From != nil {
		userID, username = msg.From.ID, msg.From.Username
	}
	chat, thread := msg.Chat.ID, topicOf(msg)
	rt, known := a.reg.commands[pc.name]
	role := a.roleOf(userID)
	if !known {
		if !private {
			return nil, nil // groups hear many commands meant for other bots
		}
		return &action{module: CoreNamespace, name: "unknown", chatID: chat, run: func(ctx context.Context) error {
			_, err := a.bot.Send(ctx, Message{ChatID: chat, Text: unknownText})
			return err
		}}, nil
	}
	if !allowed(rt.cmd.Visibility, role) {
		a.log.Debug("command denied", "command", pc.name, "user_id", userID)
		return nil, nil // no reply: a hidden command stays hidden
	}
	req := &Request{
		Update: u, Message: msg, Module: rt.module.Name, Command: pc.name, Args: pc.args,
		ChatID: chat, ThreadID: thread, UserID: userID, Private: private, Role: role, bot: a.bot,
	}
	return &action{
		module: rt.module.Name, name: "/" + pc.name, chatID: chat, threadID: thread,
		run: func(ctx context.Context) error {
			return a.safely(ctx, rt.module.Name, "/"+pc.name, chat, thread, func() error { return rt.cmd.Handler(ctx, req) })
		},
		event: &CommandEvent{Module: rt.module.Name, Command: pc.name, ChatID: chat, UserID: userID, Username: username, At: a.now()},
	}, nil
}

func (a *App) planCallback(q *models.CallbackQuery) *action {
	req := &CallbackRequest{Query: q, Data: q.Data, UserID: q.From.ID, Role: a.roleOf(q.From.ID), bot: a.bot}
	if m := q.Message.Message; m != nil {
		req.ChatID, req.ThreadID, req.MessageID = m.Chat.ID, topicOf(m), m.ID
	}
	cr, ok := a.reg.callbackFor(q.Data)
	if !ok {
		// Stop the button's spinner; the keyboard is stale or foreign.
		return &action{module: CoreNamespace, name: "callback", run: func(ctx context.Context) error {
			return a.bot.AnswerCallback(ctx, q.ID, "")
		}}
	}
	req.Module = cr.module.Name
	name := "callback " + cr.cb.Prefix
	return &action{module: cr.module.Name, name: name, chatID: req.ChatID, threadID: req.ThreadID, run: func(ctx context.Context) error {
		err := a.safely(ctx, cr.module.Name, name, req.ChatID, req.ThreadID, func() error { return cr.cb.Handler(ctx, req) })
		if err == nil && !req.answered {
			err = a.bot.AnswerCallback(ctx, q.ID, "")
		}
		return err
	}}
}

// safely runs a handler, turning a panic into a log line and an apology. A
// panic counts as handled: the same input would only panic again.
func (a *App) safely(ctx context.Context, module, name string, chat int64, thread int, f func() error) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		a.log.Error("handler panicked", "module", module, "action", name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		if chat != 0 {
			if _, sendErr := a.bot.Send(ctx, Message{ChatID: chat, ThreadID: thread, Text: apologyText}); sendErr != nil {
				a.log.Warn("could not apologise", "err", sendErr)
			}
		}
		err = nil
	}()
	return f()
}

// runHooks tells every module's OnCommand hook; hooks never fail the update.
func (a *App) runHooks(ctx context.Context, ev CommandEvent) {
	for _, m := range a.reg.modules {
		if m.OnCommand == nil {
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					a.log.Error("command hook panicked", "module", m.Name, "panic", fmt.Sprint(r))
				}
			}()
			if err := m.OnCommand(ctx, ev); err != nil {
				a.log.Warn("command hook failed", "module", m.Name, "err", err)
			}
		}()
	}
}
