package lolschedule_test

import (
	"context"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// pushTrips is the store's round trips of a day's push to n chats: the
// run, then the tick that sends.
func pushTrips(t *testing.T, n int64) int64 {
	counting := storagetest.NewCounting(memory.New(), 0)
	api := newFakeAPI(t)
	seed(api)
	e := newEnvOnStore(t, counting, api, nil, nil)
	e.clk.Set(slot.Add(3 * time.Second))
	d := e.Dispatcher(e.clk.Now)
	for c := range n {
		e.subscribe(t, [2]int64{-1 - c, 0})
	}
	counting.Reset()
	if _, err := e.pushDay(context.Background(), d, slot); err != nil {
		t.Fatal(err)
	}
	return counting.Trips()
}

// A chat's push costs the store twelve round trips (its language read, its
// timer set, then fired), past what the run and the tick read once for
// all chats.
func TestAChatsPushCostsTwelveRoundTrips(t *testing.T) {
	one, eleven := pushTrips(t, 1), pushTrips(t, 11)
	if per := (eleven - one) / 10; per != 12 {
		t.Errorf("a chat's push: %d round trips (1 chat: %d, 11 chats: %d), want 12", per, one, eleven)
	}
}
