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

// HandleUpdate turns one update into its effects. It returns an error when
// the update could not be handled (storage down, a handler failed), or was
// handled with work left owed (a command hook failed: ErrHooksOwed; a press
// unfinished: app.ErrUnfinished), so the runtime can retry it: the poller
// keeps its offset, the webhook answers 500. A redelivered update that was
// already handled is skipped, or does only what its first runs owe.
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
	if err := a.settle(ctx, u.ID); err != nil {
		return err
	}
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
	case claimOwed:
		if err := a.payOwed(ctx, log, u.ID, act, claimed); err != nil {
			return err
		}
		outcome = metrics.Handled
		log.at(ctx, slog.LevelInfo, "update's owed command hooks ran")
		return nil
	case claimGiveUp:
		outcome = metrics.Dropped
		log.at(ctx, slog.LevelError, "update dropped after repeated failures", "attempts", dedupMaxAttempts)
		if act.chatID != 0 {
			_, _ = a.bot.Send(ctx, app.Message{ChatID: act.chatID, ThreadID: act.threadID, Text: apologyText})
		}
		return nil
	}
	log.at(ctx, slog.LevelDebug, "update claimed")
	if claimed.rec.Answered && act.press != nil {
		act.press.markAnswered()
	}
	started := time.Now()
	err = act.run(ctx)
	a.metrics.Handling(act.name, time.Since(started))
	if err != nil && app.Permanent(err) {
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
	recorded := true
	end := runEnd{ok: err == nil, flood: errors.Is(err, app.ErrFlood), answered: act.press != nil && act.press.answered()}
	finish := func() {
		if ferr := a.finish(rctx, u.ID, claimed, end); ferr != nil {
			// The work is done; at worst a redelivery is handled once more.
			recorded = false
			log.at(ctx, slog.LevelWarn, "could not record the update as handled", "err", ferr)
		}
	}
	if act.event != nil && err == nil {
		// Hooks (stats) count the attempt that ended the update, before
		// its record, which names those that failed (one write): a
		// process that dies between the two leaves the update unrecorded,
		// and its run again counts it once (the hook knows its update);
		// recorded first, a count died with it.
		end.owed = a.runHooks(ctx, *act.event, nil)
	}
	finish()
	if err != nil {
		if !recorded {
			a.unrecorded.put(u.ID, unrecordedEnd{claimed: claimed, end: end})
		}
		log.at(ctx, slog.LevelError, "update failed", "err", err)
		return fmt.Errorf("update %d: %s %s: %w", u.ID, act.module, act.name, err)
	}
	if len(end.owed) > 0 {
		return a.owe(u.ID, claimed, recorded, end)
	}
	outcome = metrics.Handled
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
