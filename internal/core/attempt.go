package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// tryKey is the attempt token of run attempt of update id: a claim again
// (see claim) inserts it before it swaps the record.
func tryKey(id int64, attempt int) string {
	return "try:" + strconv.FormatInt(id, 10) + ":" + strconv.Itoa(attempt)
}

// runs is how many runs of the update started (records written before
// Run was kept count their attempts).
func (r dedupRecord) runs() int { return max(r.Run, r.Attempts) }

// claimAttempt takes run prevRec.runs()+1 of update id: the token's insert
// decides between racing deliveries, then the record is swapped from the
// bytes that were read. Losing either step means another delivery has the
// update: in flight, not acknowledged.
func (a *App) claimAttempt(ctx context.Context, id int64, key string, prev []byte, prevRec dedupRecord) (claimResult, claimedRecord, error) {
	run := prevRec.runs() + 1
	took, err := a.takeToken(ctx, tryKey(id, run))
	if err != nil {
		return 0, claimedRecord{}, fmt.Errorf("dedup: update %d: run %d: %w", id, run, err)
	}
	if !took {
		return claimInFlight, claimedRecord{}, nil
	}
	mine := dedupRecord{ID: id, State: stateRunning, Attempts: prevRec.Attempts + 1, Run: run, At: a.now().UnixNano(), Owner: runnerOf(ctx).ID, Answered: prevRec.Answered}
	next := claimedRecord{key, mine.encode(), mine}
	err = a.core.CompareAndSwap(ctx, key, prev, next.bytes)
	if errors.Is(err, storage.ErrConflict) {
		return claimInFlight, claimedRecord{}, nil // the record moved on since it was read
	}
	if err != nil {
		return 0, claimedRecord{}, fmt.Errorf("dedup: update %d: run %d: %w", id, run, err)
	}
	return claimRun, next, nil
}

// takeToken inserts the token at key (its value: when, and the Runner's
// ID). A token already there belongs to a live claimer, unless it is older
// than dedupStale or its owner is known gone: then its claimer died between
// the token and the record's swap (or the swap failed), and the token is
// taken over, or the update would wait forever.
func (a *App) takeToken(ctx context.Context, key string) (bool, error) {
	now := a.now().UnixNano()
	runner := runnerOf(ctx)
	mine := []byte(strings.TrimSpace(strconv.FormatInt(now, 10) + " " + runner.ID))
	err := a.core.CompareAndSwap(ctx, key, nil, mine)
	if !errors.Is(err, storage.ErrConflict) {
		return err == nil, err
	}
	cur, err := a.core.Get(ctx, key)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false, nil // dropped meanwhile: the update is done, or the next delivery takes it
	case err != nil:
		return false, err
	}
	atText, owner, _ := strings.Cut(string(cur), " ")
	if at, perr := strconv.ParseInt(atText, 10, 64); perr == nil && time.Duration(now-at) < dedupStale && !runner.gone(ctx, owner) {
		return false, nil
	}
	err = a.core.CompareAndSwap(ctx, key, cur, mine)
	if errors.Is(err, storage.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// dropTokens deletes update id's attempt tokens once it ended (best effort:
// a token left behind costs a few bytes and blocks nothing, as no later
// claim of id asks for it).
func (a *App) dropTokens(ctx context.Context, id int64, runs int) {
	for n := 2; n <= runs; n++ {
		if err := a.core.Delete(ctx, tryKey(id, n)); err != nil {
			a.log.Debug("dedup: an attempt token stays", "update_id", id, "attempt", n, "err", err)
		}
	}
}
