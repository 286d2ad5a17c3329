package lolschedule_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A thousand subscribers (two hundred on a server, for time), a fifth of
// them gone, upgraded to supergroups or in a closed or deleted topic, each
// answered as Telegram answers (the recorded bodies): the push succeeds;
// gone chats are forgotten; an upgraded group keeps its subscription under
// its new id and gets the day's digest there once, also across a retry; a
// closed or deleted topic keeps its subscription and is not tried again
// today. On every backend.
func TestTheDailyPushFollowsEveryChatsLife(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		if !backendtest.AtomicValueCAS(t, p) {
			// Each chat's day goes out once there too (a busy write is
			// retried), but the core's forgetting of a gone chat or move
			// of an upgraded one is a write the busy server may refuse
			// under the tick's 64 workers, and is not tried again.
			t.Skip(backendtest.FerretDBLimit)
		}
		subscribers := int64(200)
		if _, ok := p.(*memory.Provider); ok {
			subscribers = 1000
		}
		pushThroughALife(t, p, subscribers)
	})
}

func pushThroughALife(t *testing.T, p storage.KVProvider, subscribers int64) {
	api := newFakeAPI(t)
	seed(api)
	e := newEnvOnStore(t, p, api, nil, []telegram.Option{telegram.WithRates(rate.Inf, rate.Inf)})
	e.clk.Set(slot.Add(3 * time.Second))
	d := e.Dispatcher(e.clk.Now)
	var subs [][2]int64
	gone, upgraded, closed := map[int64]bool{}, map[int64]int64{}, map[int64]bool{}
	for i := range subscribers {
		chat := -(1000 + i)
		subs = append(subs, [2]int64{chat, 0})
		switch i % 30 {
		case 0, 3, 6:
			gone[chat] = true
			e.Srv.FailChat(chat, telegramtest.RecordedFailure(t, []string{"answer_kicked_supergroup.json", "answer_group_deleted.json", "answer_chat_not_found.json"}[i%30/3]))
		case 1:
			upgraded[chat] = chat - 1_000_000_000_000
			e.Srv.Upgrade(chat, upgraded[chat])
		case 2, 4:
			closed[chat] = true // closed or deleted: the send refused, the chat kept
			e.Srv.FailChat(chat, telegramtest.RecordedFailure(t, map[int64]string{2: "answer_topic_closed.json", 4: "answer_topic_deleted.json"}[i%30]))
		}
	}
	e.subscribe(t, subs...)
	e.pushSettled(t, d, slot)
	calls := len(e.Srv.Calls("sendMessage"))
	// A retry of the day (a manual run of another minute) sends nothing new.
	e.pushSettled(t, d, slot.Add(time.Minute))
	if again := len(e.Srv.Calls("sendMessage")) - calls; again != 0 {
		t.Fatalf("the retry sent %d messages; no final answer is retried and no chat gets two", again)
	}
	got := e.digests() // sendMessage calls, refused ones included
	var wantKeys []string
	for _, s := range subs {
		chat := s[0]
		switch {
		case gone[chat]:
			if n := got[[2]int64{chat, 0}]; n != 1 {
				t.Fatalf("gone chat %d was tried %d times, want once", chat, n)
			}
		case upgraded[chat] != 0:
			if n := got[[2]int64{upgraded[chat], 0}]; n != 1 {
				t.Fatalf("upgraded chat %d got %d digests at its new id", chat, n)
			}
			wantKeys = append(wantKeys, fmt.Sprintf("sub:%d:0", upgraded[chat]))
		case closed[chat]:
			if n := got[[2]int64{chat, 0}]; n != 1 {
				t.Fatalf("closed topic %d was tried %d times, want once", chat, n)
			}
			wantKeys = append(wantKeys, fmt.Sprintf("sub:%d:0", chat))
		default:
			if n := got[[2]int64{chat, 0}]; n != 1 {
				t.Fatalf("chat %d got %d digests", chat, n)
			}
			wantKeys = append(wantKeys, fmt.Sprintf("sub:%d:0", chat))
		}
	}
	slices.Sort(wantKeys)
	if keys := e.subscriberKeys(t); strings.Join(keys, " ") != strings.Join(wantKeys, " ") {
		t.Fatalf("%d subscriptions left, want %d (gone ones forgotten, upgraded ones moved, closed topics kept)", len(keys), len(wantKeys))
	}
}

// pushSettled runs the push of at, again while it fails (the scheduler's
// retries), then ticks the timers a minute apart until none is due: a
// store that refuses some writes under load (FerretDB's busy SQLite) may
// fail a run or a tick; what the test asserts is the promise after.
func (e *env) pushSettled(t *testing.T, d *cron.Dispatcher, at time.Time) {
	t.Helper()
	var err error
	for range 5 {
		if _, err = d.Dispatch(t.Context(), pushJob, at); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("the push failed five times: %v", err)
	}
	for range 10 {
		st, err := e.App.Timers().Tick(t.Context())
		if err == nil && st.Due == st.Forgot && !st.Busy {
			return
		}
		e.clk.Add(time.Minute)
	}
	t.Fatal("the push's timers still wait after ten ticks")
}
