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

// HandleUpdate turns one update into its effects, once (docs/delivery.md).
// It returns an error when the update was not handled (storage down, a
// handler failed, app.ErrInFlight: another process has it), so the runtime
// delivers it again: the poller keeps its offset, the webhook answers 500.
// It logs each failure itself, once, with the update's id and cause.
func (a *App) HandleUpdate(ctx context.Context, u *models.Update) error {
	if u == nil {
		return nil
	}
	outcome := metrics.Failed // what the update came to, recorded once
	defer func() { a.metrics.Update(updateKind(u), outcome) }()
	act, err := a.plan(ctx, u)
	switch {
	case err != nil:
		// Every failure is logged here, once, whichever runtime delivered
		// the update: the webhook's 500 and the poller's retry say no more.
		a.log.Error("update failed", "update_id", u.ID, "step", "plan", "err", err)
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
		log.at(ctx, slog.LevelError, "update failed", "step", "claim", "err", err)
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
		a.apologise(ctx, act.lang, act.chatID, act.threadID)
		return nil
	}
	if act.press != nil && (claimed.rec.Answered || act.oneShot && claimed.rec.Attempts > 1) {
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
		// A damaged item no run can read: every delivery would fail the
		// same way. Reported (once per item), the user told, and finished.
		a.reportDamage(ctx, act.module, err, "update_id", u.ID, "action", act.name)
		a.tellDamaged(ctx, act.lang, act.chatID, act.threadID)
		act.failed, err = true, nil
	}
	if act.event != nil && err == nil && !act.failed {
		a.runHooks(ctx, u.ID, *act.event)
	}
	// Recorded even when the budget ran out: a failed run recorded lets
	// its redelivery run at once instead of waiting out the stale mark.
	end := runEnd{ok: err == nil, flood: errors.Is(err, app.ErrFlood), answered: act.press != nil && act.press.answered()}
	if ferr := a.finish(context.WithoutCancel(ctx), u.ID, claimed, end); ferr != nil {
		// Unrecorded, the update is not acknowledged: its redelivery runs
		// it again (at once in this process, see Runner) rather than leave
		// a count or a claim behind; its reply may go twice.
		log.at(ctx, slog.LevelWarn, notRecorded, "err", ferr)
		if err == nil {
			return fmt.Errorf("update %d: recording its outcome: %w", u.ID, ferr)
		}
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
