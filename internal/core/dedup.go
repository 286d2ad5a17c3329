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

// The update claim: one record per update, so that a redelivery runs an
// update once. Records live in dedupSlots slots by update_id, reused only
// after dedupSlots newer updates (more than a day's): bounded. After
// dedupMaxAttempts failed runs an update is dropped with an apology, so a
// poison update cannot hold its chat forever.
const (
	dedupSlots       = 8192
	dedupMaxAttempts = 5
)

// dedupStale: a running claim older than this is a crashed run's. It
// exceeds UpdateBudget plus RecordTime, or a second run could start beside
// a live first one. A variable only for testkit builds.
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

func (r dedupRecord) encode() []byte {
	b, _ := json.Marshal(r)
	return b
}

// doneRecord is the one form of a finished update's record: nothing in it
// varies, so the claim of the update that reuses the slot can guess the
// slot's bytes and claim with one conditional write (see slotGuess).
func doneRecord(id int64) []byte { return dedupRecord{ID: id, State: stateDone}.encode() }

// claimedRecord is the record a claim wrote, where, and its bytes (what
// finish swaps from).
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

// claim records that this process runs update id: one compare-and-swap
// loop on its slot, which every accepted backend applies atomically. A slot
// holding a newer update's record (a backlog older than dedupSlots updates)
// is left alone: the update is claimed in a second ring, "update:late:",
// or run unclaimed (logged) if that too is newer. A run in flight whose
// owner the Runner knows gone is taken over at once.
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
