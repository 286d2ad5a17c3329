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

// De-duplication of redelivered updates (Telegram retries a webhook that
// failed or timed out, with the same update_id). A record per update lives in
// the core namespace in one of dedupSlots slots, chosen by update_id: update
// ids grow by one per update, so a slot is reused only after dedupSlots newer
// updates, more than this bot sees in a day. The store needs no TTL, and
// its size is bounded by the slot count.
const (
	dedupSlots = 8192
	// After this many failed runs an update is dropped, so one poison update
	// cannot block its chat (or the poller) forever.
	dedupMaxAttempts = 5
)

// dedupStale: a claim older than this is a crashed run, free to take again
// (sooner when its Runner says its owner is gone).
// It must exceed the longest a run may take (UpdateBudget, plus recording
// its outcome), or a second run would start alongside a live first one.
// A variable only so that testkit builds (the crash tests) can shorten it.
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
	Run      int        `json:"run,omitempty"`      // runs started, 1 for the first: names a claim again's token
	At       int64      `json:"at,omitempty"`       // unix nanos of the last change; none once done
	Owner    string     `json:"owner,omitempty"`    // the Runner of the run (see RunAs); none: a webhook's
	// Owed are the modules whose OnCommand hooks failed after the update
	// was handled (state done): its redelivery runs only those (see owe).
	Owed []string `json:"owed,omitempty"`
	// Answered: a run of this button press answered it (and failed, to
	// be run again: app.Unfinished); the next run answers it no more.
	Answered bool `json:"answered,omitempty"`
}

// encode is the record's JSON. A dedupRecord always marshals.
func (r dedupRecord) encode() []byte {
	b, _ := json.Marshal(r)
	return b
}

// doneRecord is the one form of a finished update's record: nothing in it
// varies, so the claim of the update that reuses the slot, dedupSlots
// later, can guess the slot's bytes and claim with one conditional write.
func doneRecord(id int64) []byte { return dedupRecord{ID: id, State: stateDone}.encode() }

// claimedRecord is the record a claim wrote, as bytes (what finish swaps
// from) and decoded (so finish need not decode it), and where.
type claimedRecord struct {
	key   string
	bytes []byte
	rec   dedupRecord
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

// claimResult says what to do with an update.
type claimResult int

const (
	claimRun       claimResult = iota // handle it
	claimDuplicate                    // handled: skip and acknowledge
	claimInFlight                     // being handled elsewhere: do not acknowledge yet
	claimGiveUp                       // failed too often: drop it
	claimAgain                        // ran before and failed, or went stale: claimAttempt decides
	claimLate                         // its slot holds a newer update's record: claim it apart
	claimOwed                         // handled, its failed hooks owed: run only those (see payOwed)
)

func dedupKey(id int64) string {
	return "update:" + strconv.FormatInt(((id%dedupSlots)+dedupSlots)%dedupSlots, 10)
}

// lateKey is the record of an update handled after its slot went to a
// newer one (a backlog the poller held longer than dedupSlots updates).
// Such records are rare and stay: no later update reuses the key.
func lateKey(id int64) string { return "update:late:" + strconv.FormatInt(id, 10) }

// claim records that this process is handling update id. When it is to run
// the update, it also returns the record it wrote, so that finish can swap
// it without reading it again.
//
// A first claim is an insert, which every backend applies atomically. A
// claim again (after a failed run, or of a stale one) first inserts a token
// for that attempt ("try:<id>:<n>"): of the deliveries racing for it, only
// the token's writer goes on to swap the record, so the re-claim does not
// rest on a value-matched swap alone (which FerretDB, unlike MongoDB and
// DynamoDB, does not apply atomically: two racing re-claims both won).
//
// A slot that holds a newer update's record is never overwritten (that
// update would run again): the update is claimed apart, at lateKey.
//
// A run in flight whose owner the Runner knows to be gone (see RunAs) is
// taken over at once, as a stale one is.
func (a *App) claim(ctx context.Context, id int64) (claimResult, claimedRecord, error) {
	key, guess := dedupKey(id), a.slotGuess(id)
	res, wrote, owner, err := a.claimAt(ctx, id, key, guess, "")
	if res == claimLate {
		key, guess = lateKey(id), nil
		res, wrote, owner, err = a.claimAt(ctx, id, key, guess, "")
	}
	if res == claimInFlight && runnerOf(ctx).gone(ctx, owner) {
		a.log.Info("the run of a process that is gone is taken over", "update_id", id, "owner", owner)
		res, wrote, _, err = a.claimAt(ctx, id, key, guess, owner)
	}
	return res, wrote, err
}

// claimAt is claim at key; guess is what it expects there (see slotGuess),
// nil for a late key. A run in flight by gone counts as stale. owner is
// the owner of a run in flight.
func (a *App) claimAt(ctx context.Context, id int64, key string, guess []byte, gone string) (result claimResult, wrote claimedRecord, owner string, err error) {
	var prev []byte
	var again dedupRecord // the record a claim again replaces
	slot := key == dedupKey(id)
	runner := runnerOf(ctx)
	err = storage.UpdateFrom(ctx, a.core, key, guess, func(cur []byte) (out []byte, err error) {
		wrote, owner = claimedRecord{}, "" // the last call is the one written
		var rec dedupRecord
		switch {
		case cur == nil:
		case guess != nil && bytes.Equal(cur, guess):
			rec = dedupRecord{ID: id - dedupSlots, State: stateDone} // the guess, known without decoding it
		case json.Unmarshal(cur, &rec) != nil:
			rec = dedupRecord{} // unreadable: treat as someone else's slot
		}
		// f's last call sees what the slot held (a wrong guess is followed
		// by a read): the next claim guesses from it. This update's own
		// record (a redelivery) says nothing about the slots.
		if slot && (cur == nil || rec.ID != id) {
			a.slotsFull.Store(cur != nil)
		}
		if slot && cur != nil && rec.ID > id {
			result = claimLate
			return nil, nil
		}
		result = claimRun
		if rec.ID == id && cur != nil {
			verdict := claim.Judge(claim.Parse(string(rec.State)), rec.At, a.now(), dedupStale)
			if verdict == claim.Busy && gone != "" && rec.Owner == gone {
				verdict = claim.Take
			}
			switch {
			case verdict == claim.Over && len(rec.Owed) > 0:
				result, wrote = claimOwed, claimedRecord{key, cur, rec}
			case verdict == claim.Over:
				result = claimDuplicate
			case verdict == claim.Busy:
				// Being handled is not handled: the runner may die.
				result, owner = claimInFlight, rec.Owner
			case rec.Attempts >= dedupMaxAttempts:
				result, again = claimGiveUp, rec
				return doneRecord(id), nil
			default:
				result, prev, again = claimAgain, cur, rec
			}
			return nil, nil
		}
		mine := dedupRecord{ID: id, State: stateRunning, Attempts: 1, Run: 1, At: a.now().UnixNano(), Owner: runner.ID}
		wrote = claimedRecord{key, mine.encode(), mine}
		return wrote.bytes, nil
	})
	if err != nil {
		return 0, claimedRecord{}, "", fmt.Errorf("dedup: update %d: %w", id, err)
	}
	if result == claimGiveUp {
		a.dropTokens(ctx, id, again.runs())
	}
	if result != claimAgain {
		return result, wrote, owner, nil
	}
	result, wrote, err = a.claimAttempt(ctx, id, key, prev, again)
	return result, wrote, "", err
}
