package core

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The update claim: one record per update, so that a redelivery (a webhook
// retried, the poller's offset not yet confirmed, a second process) runs an
// update once. Records live in dedupSlots slots chosen by update_id: ids grow
// by one per update, so a slot is reused only after dedupSlots newer updates,
// more than this bot sees in a day, and what the claim keeps is bounded.
const (
	dedupSlots = 8192
	// After this many failed runs an update is dropped with an apology, so
	// one poison update cannot hold its chat (or the poller) forever.
	dedupMaxAttempts = 5
)

// dedupStale: a claim older than this is a crashed run, free to take again
// (sooner when its Runner says its owner is gone). It exceeds the longest
// a run may take (UpdateBudget plus RecordTime), or a second run would start
// beside a live first one. A variable only for testkit builds.
var dedupStale = 2 * time.Minute

type dedupState string

const (
	stateRunning dedupState = "running"
	stateDone    dedupState = "done"
	stateFailed  dedupState = "failed"
)

type dedupRecord struct {
	ID       int64      `json:"id"`
	State    dedupState `json:"state"`
	Attempts int        `json:"attempts,omitempty"` // failed runs that count toward dropping it
	At       int64      `json:"at,omitempty"`       // unix nanos of the last change; none once done
	Owner    string     `json:"owner,omitempty"`    // the Runner of the run (see RunAs); none: a webhook's
	// Answered: a run of this button press answered it and failed, to be
	// run again (app.Unfinished); the next run answers it no more.
	Answered bool `json:"answered,omitempty"`
}

// encode is the record's JSON. A dedupRecord always marshals.
func (r dedupRecord) encode() []byte {
	b, _ := json.Marshal(r)
	return b
}

// doneRecord is the one form of a finished update's record: nothing in it
// varies, so the claim of the update that reuses the slot can guess the
// slot's bytes and claim with one conditional write (see slotGuess).
func doneRecord(id int64) []byte { return dedupRecord{ID: id, State: stateDone}.encode() }

// claimedRecord is the record a claim wrote, as bytes (what finish swaps
// from) and decoded, and where.
type claimedRecord struct {
	key   string
	bytes []byte
	rec   dedupRecord
}

// claimResult says what to do with an update.
type claimResult int

const (
	claimRun       claimResult = iota // handle it
	claimDuplicate                    // handled: skip and acknowledge
	claimInFlight                     // being handled elsewhere: do not acknowledge yet
	claimGiveUp                       // failed too often: drop it
)

func slotKey(prefix string, id int64) string {
	return prefix + strconv.FormatInt(((id%dedupSlots)+dedupSlots)%dedupSlots, 10)
}

// slotGuess is what claim expects in update id's slot: nothing while the
// slots fill up after a fresh start of the store, then the record of the
// update dedupSlots before. Whichever the last claim found is the guess.
func (a *App) slotGuess(id int64) []byte {
	if !a.slotsFull.Load() {
		return nil
	}
	return doneRecord(id - dedupSlots)
}

// claim records that this process runs update id, and returns the record
// it wrote for finish to swap from. It is one compare-and-swap loop on the
// update's slot: every backend the bot accepts applies it atomically, so of
// racing deliveries one runs the update.
//
// A slot that holds a newer update's record (a backlog held longer than
// dedupSlots updates) is never overwritten, or that update would run again:
// the late update is claimed in a second ring of slots, "update:late:",
// and run unclaimed (logged) if that one is newer too.
//
// A run in flight whose owner the Runner knows to be gone (see RunAs) is
// taken over at once instead of after dedupStale.
func (a *App) claim(ctx context.Context, id int64) (claimResult, claimedRecord, error) {
	res, wrote, late, err := a.claimAt(ctx, id, slotKey("update:", id), a.slotGuess(id), true)
	if err == nil && late {
		res, wrote, late, err = a.claimAt(ctx, id, slotKey("update:late:", id), nil, false)
		if err == nil && late {
			a.log.Warn("update run without a claim: both of its slots hold newer updates", "update_id", id)
		}
	}
	if err != nil {
		return 0, claimedRecord{}, fmt.Errorf("claim: update %d: %w", id, err)
	}
	return res, wrote, nil
}

// claimAt is claim at key; guess is what it expects there. late: the key
// holds a newer update's record, and nothing was written.
func (a *App) claimAt(ctx context.Context, id int64, key string, guess []byte, ring bool) (res claimResult, wrote claimedRecord, late bool, err error) {
	runner := runnerOf(ctx)
	err = storage.UpdateFrom(ctx, a.core, key, guess, func(cur []byte) ([]byte, error) {
		res, wrote, late = claimRun, claimedRecord{}, false // the last call is the one that counts
		var rec dedupRecord
		switch {
		case cur == nil:
		case guess != nil && bytes.Equal(cur, guess):
			rec = dedupRecord{ID: id - dedupSlots, State: stateDone} // known without decoding
		case json.Unmarshal(cur, &rec) != nil:
			rec = dedupRecord{} // unreadable: an older update's, overwritten
		}
		if ring && rec.ID != id { // what the slot held guesses the next claim
			a.slotsFull.Store(cur != nil)
		}
		if cur != nil && rec.ID > id {
			late = true
			return nil, nil
		}
		next := dedupRecord{ID: id, State: stateRunning, Attempts: 1, At: a.now().UnixNano(), Owner: runner.ID}
		if cur != nil && rec.ID == id {
			verdict := claim.Judge(claim.Parse(string(rec.State)), rec.At, a.now(), dedupStale)
			if verdict == claim.Busy && runner.gone(ctx, rec.Owner) {
				verdict = claim.Take
			}
			switch {
			case verdict == claim.Over:
				res = claimDuplicate
				return nil, nil
			case verdict == claim.Busy:
				res = claimInFlight // being handled is not handled: the runner may die
				return nil, nil
			case rec.Attempts >= dedupMaxAttempts:
				res = claimGiveUp
				return doneRecord(id), nil
			}
			next.Attempts, next.Answered = rec.Attempts+1, rec.Answered
		}
		wrote = claimedRecord{key, next.encode(), next}
		return wrote.bytes, nil
	})
	return res, wrote, late, err
}
