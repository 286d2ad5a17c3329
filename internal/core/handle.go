package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
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

// Replies the core itself sends.
const (
	apologyText = "Sorry, something went wrong while handling that. Please try again later."
	unknownText = "Unknown command. Send /help to see what I can do."
	// pressFailedText is the toast of a press whose handler failed.
	pressFailedText = "Sorry, that did not work. Please try again."
	// inlineText answers a press on a message sent in inline mode.
	inlineText = "This button does not belong to a message of mine."
)

// HandleUpdate turns one update into its effects, once. It returns an
// error when the update could not be handled (storage down, a handler
// failed, app.ErrInFlight: another process has it), so the runtime delivers
// it again: the poller keeps its offset, the webhook answers 500. A
// redelivered update that was handled already is skipped.
//
// What is exactly-once and what at-least-once is docs/delivery.md: the run
// is claimed once; the OnCommand hooks (counters) run before the update is
// recorded done, so a crash between the two counts it again.
func (a *App) HandleUpdate(ctx context.Context, u *models.Update) error {
	if u == nil {
		return nil
	}
	outcome := metrics.Failed // what the update came to, recorded once
	defer func() { a.metrics.Update(updateKind(u), outcome) }()
	act, err := a.plan(ctx, u)
	switch {
	case err != nil:
		return err
	case act == nil:
		outcome = metrics.Ignored
		return nil
	}
	log := updateLog{l: a.log, id: u.ID, act: act}
	ctx, cancel := context.WithTimeout(ctx, a.budget)
	defer cancel()
	res, claimed, err := a.claim(ctx, u.ID)
	if err != nil {
		return fmt.Errorf("update %d: %w", u.ID, err)
	}
	switch res {
	case claimDuplicate:
		outcome = metrics.Duplicate
		log.at(ctx, slog.LevelInfo, "update skipped: already handled")
		return nil
	case claimInFlight:
		outcome = metrics.InFlight
		log.at(ctx, slog.LevelInfo, "update not acknowledged: being handled elsewhere")
		return fmt.Errorf("update %d: %w", u.ID, app.ErrInFlight)
	case claimGiveUp:
		outcome = metrics.Dropped
		log.at(ctx, slog.LevelError, "update dropped after repeated failures", "attempts", dedupMaxAttempts)
		a.apologise(ctx, act)
		return nil
	}
	if claimed.rec.Answered && act.press != nil {
		act.press.markAnswered()
	}
	started := time.Now()
	err = act.run(ctx)
	a.metrics.Handling(act.name, time.Since(started))
	switch {
	case err == nil:
	case app.Permanent(err):
		// Telegram refuses this for good (blocked, gone, too long): trying
		// again would send again and fail again, then apologise in vain.
		log.at(ctx, slog.LevelWarn, "update ended: Telegram refuses the reply; not retried", "class", permanentClass(err), "err", err)
		err = nil
	case errors.Is(err, storage.ErrUnreadable):
		// A stored value no run can read: every delivery would fail the
		// same way. Said once, with the key, and answered.
		log.at(ctx, slog.LevelError, "update ended: a stored value cannot be read; not retried", "err", err)
		a.apologise(ctx, act)
		act.failed, err = true, nil
	}
	if act.event != nil && err == nil && !act.failed {
		a.runHooks(ctx, u.ID, *act.event)
	}
	// Recorded even when the budget ran out: a failed run recorded lets
	// its redelivery run at once instead of waiting out the stale mark.
	end := runEnd{ok: err == nil, flood: errors.Is(err, app.ErrFlood), answered: act.press != nil && act.press.answered()}
	if ferr := a.finish(context.WithoutCancel(ctx), u.ID, claimed, end); ferr != nil && err == nil {
		// Unrecorded, the update is not acknowledged: its redelivery runs
		// it again (at once in this process, see Runner) rather than leave
		// a count or a claim behind; its reply may go twice.
		log.at(ctx, slog.LevelWarn, "update handled, its outcome not recorded: not acknowledged", "err", ferr)
		return fmt.Errorf("update %d: recording its outcome: %w", u.ID, ferr)
	}
	if err != nil {
		log.at(ctx, slog.LevelError, "update failed", "err", err)
		return fmt.Errorf("update %d: %s %s: %w", u.ID, act.module, act.name, err)
	}
	if outcome = metrics.Handled; act.failed {
		outcome = metrics.Failed
	}
	log.at(ctx, slog.LevelDebug, "update handled")
	return nil
}

// apologise tells the update's chat, if it has one, that it was not handled.
func (a *App) apologise(ctx context.Context, act *action) {
	if act.chatID == 0 {
		return
	}
	if _, err := a.bot.Send(ctx, app.Message{ChatID: act.chatID, ThreadID: act.threadID, Text: apologyText}); err != nil {
		a.log.Warn("could not apologise", "err", err)
	}
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
