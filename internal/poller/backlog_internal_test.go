package poller

import (
	"slices"
	"testing"

	"github.com/go-telegram/bot/models"
)

func msg(id, chat int64) *models.Update {
	return &models.Update{ID: id, Message: &models.Message{Chat: models.Chat{ID: chat}}}
}

// A run that parked an update but died before the next getUpdates told
// Telegram leaves it in both places. The next run must not handle it
// before an older update of its chat that only Telegram has: what Telegram
// still has comes again in order, so the inbox's copy waits for it.
func TestARecoveredUpdateTelegramStillHasWaitsForItsTurn(t *testing.T) {
	q := newQueues(100, nil)
	chat := laneKey{chat: 1}
	start := q.recover([]heldItem{{chat, 3}, {chat, 7}}, 5) // Telegram's oldest is 5
	if !slices.Equal(start, []laneKey{chat}) {
		t.Fatalf("lanes started %v, want the chat's, for update 3", start)
	}
	q.admit([]*models.Update{msg(5, 1), msg(6, 1), msg(7, 1)})
	var order []int64
	for _, e := range q.lanes[chat].entries {
		order = append(order, e.id)
	}
	if !slices.Equal(order, []int64{3, 5, 6, 7}) {
		t.Fatalf("lane order %v, want 3 5 6 7", order)
	}
	if got := q.offset(); got != 5 {
		t.Fatalf("offset %d, want 5 (the oldest update only Telegram has)", got)
	}
}

// An update a run before parked and Telegram sends again is parked
// already: it is not written again, and its item is deleted once it is
// done, whoever wrote it.
func TestAnUpdateFetchedAgainThatTheInboxHoldsIsDeletedWhenDone(t *testing.T) {
	q := newQueues(100, nil)
	chat := laneKey{chat: 1}
	q.recover([]heldItem{{chat, 7}}, 5) // Telegram's oldest is 5
	q.admit([]*models.Update{msg(5, 1), msg(7, 1)})
	var toPark []int64
	for _, e := range q.toPark() {
		toPark = append(toPark, e.id)
	}
	if !slices.Equal(toPark, []int64{5}) {
		t.Fatalf("to park %v, want only 5: the inbox holds 7", toPark)
	}
	first, _ := q.head(chat)
	q.done(chat, first)
	second, _ := q.head(chat)
	if second.id != 7 || !q.done(chat, second) {
		t.Fatalf("update %d done without its inbox item deleted", second.id)
	}
}

func TestTheOffsetStaysAtTheOldestUpdateNotDurable(t *testing.T) {
	q := newQueues(100, nil)
	q.admit([]*models.Update{msg(10, 1), msg(11, 2), msg(12, 1)})
	if got := q.offset(); got != 10 {
		t.Fatalf("offset %d, want 10", got)
	}
	for _, e := range q.toPark() {
		q.parking(e)
		q.parked(e, e.id != 11) // 11's write fails
	}
	if got := q.offset(); got != 11 {
		t.Fatalf("offset %d, want 11: the write of 11 failed", got)
	}
	e, _ := q.head(laneKey{chat: 2})
	q.done(laneKey{chat: 2}, e)
	if got := q.offset(); got != 13 {
		t.Fatalf("offset %d, want 13: every update is handled or parked", got)
	}
}

// An update done before its write starts is not written; one done while
// it is written is deleted by its writer, once the write has landed.
func TestAnUpdateDoneBeforeItsParkIsNotWrittenAndOneDoneDuringItIsDropped(t *testing.T) {
	q := newQueues(100, nil)
	q.admit([]*models.Update{msg(1, 1), msg(2, 2)})
	jobs := q.toPark()
	if len(jobs) != 2 {
		t.Fatalf("%d updates to park, want both", len(jobs))
	}
	first, _ := q.head(laneKey{chat: 1})
	if q.done(laneKey{chat: 1}, first) {
		t.Fatal("an update never written has no inbox item to delete")
	}
	if u := q.parking(first); u != nil {
		t.Fatal("an update done before its write is written anyway")
	}
	second, _ := q.head(laneKey{chat: 2})
	if q.parking(second) == nil {
		t.Fatal("a running update is not written")
	}
	if q.done(laneKey{chat: 2}, second) {
		t.Fatal("the item being written is its writer's to delete, not the worker's")
	}
	if !q.parked(second, true) {
		t.Fatal("the writer of an update done meanwhile must delete its item")
	}
	if got := q.offset(); got != 3 {
		t.Fatalf("offset %d, want 3: both are done", got)
	}
}
