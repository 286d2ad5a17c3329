package core

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// deployBudget bounds the whole deploy notice: it must never delay start-up.
const deployBudget = 3 * time.Second

// NotifyDeploy runs once per new build (git SHA), whichever runtime or
// instance starts first: it claims the SHA with CAS in the core namespace,
// publishes the command menu, sweeps what earlier builds left behind
// (sweepLegacy) and DMs the owner. Failures are only logged.
// It returns whether this call did the work. When it cannot run, it says
// why in one line, so a silent deploy is never a mystery.
func (a *App) NotifyDeploy(ctx context.Context, sha string) bool {
	switch {
	case sha == "":
		a.metrics.DeployNotice(metrics.Skipped)
		a.log.Info("deploy notice off: the build carries no commit (build with SOURCE_COMMIT or GIT_SHA, or from a clean checkout)")
		return false
	case a.ownerID == 0:
		a.metrics.DeployNotice(metrics.Skipped)
		a.log.Info("deploy notice off: OWNER_ID is not set", "git_sha", sha)
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, deployBudget)
	defer cancel()
	log := a.log.With("git_sha", sha)
	stamp := []byte(strconv.FormatInt(a.now().UnixNano(), 10))
	err := a.core.CompareAndSwap(ctx, "deploy:"+sha, nil, stamp)
	switch {
	case errors.Is(err, storage.ErrConflict):
		a.metrics.DeployNotice(metrics.Skipped)
		return false // another instance announced this build
	case err != nil:
		a.metrics.DeployNotice(metrics.Failed)
		log.Warn("deploy notice skipped", "err", err)
		return false
	}
	if err := a.SyncCommands(ctx); err != nil {
		log.Warn("deploy: command menu not updated", "err", err)
	}
	a.sweepLegacy(ctx)
	lang, _ := a.chatLang(ctx, a.ownerID) // unreadable: the notice in English rather than none
	if _, err := a.bot.Send(ctx, app.Message{ChatID: a.ownerID, Text: a.say(lang, "deployed", app.Args{"Commit": sha})}); err != nil {
		a.metrics.DeployNotice(metrics.Failed)
		log.Warn("deploy: owner not notified", "err", err)
		return true
	}
	a.metrics.DeployNotice(metrics.Sent)
	log.Info("deploy announced")
	return true
}
