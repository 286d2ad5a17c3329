package poller_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestUpdatesOfAChatStayInOrderWhileChatsRunInParallel(t *testing.T) {
	srv := telegramtest.New(t)
	rec := newRecorder()
	bHandled := make(chan struct{})
	var once sync.Once
	handle := func(_ context.Context, u *models.Update) error {
		if u.Message.Chat.ID == 2 {
			once.Do(func() { close(bHandled) })
		}
		if u.Message.Text == "a1" {
			<-bHandled // chat 1 waits on chat 2: only parallel chats get past this
		}
		rec.add(u)
		return nil
	}
	for i := 1; i <= 3; i++ {
		srv.Push(telegramtest.Text(1, 1, "a"+strconv.Itoa(i)), telegramtest.Text(2, 2, "b"+strconv.Itoa(i)))
	}
	start(t, poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait)))
	rec.waitFor(t, 6)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Equal(rec.byChat[1], []string{"a1", "a2", "a3"}) || !slices.Equal(rec.byChat[2], []string{"b1", "b2", "b3"}) {
		t.Fatalf("handled %v", rec.byChat)
	}
}

func TestAFailedUpdateIsTriedAgainBeforeTheRestOfItsChat(t *testing.T) {
	srv := telegramtest.New(t)
	rec := newRecorder()
	var mu sync.Mutex
	failOnce := map[string]bool{"x2": true}
	handle := func(_ context.Context, u *models.Update) error {
		mu.Lock()
		fail := failOnce[u.Message.Text]
		delete(failOnce, u.Message.Text)
		mu.Unlock()
		if fail {
			return errors.New("store down")
		}
		rec.add(u)
		return nil
	}
	srv.Push(telegramtest.Text(1, 1, "x1"), telegramtest.Text(1, 1, "x2"), telegramtest.Text(1, 1, "x3"))
	w := newWaits()
	start(t, poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(w.wait)))
	rec.waitFor(t, 3)

	rec.mu.Lock()
	got := rec.byChat[1]
	rec.mu.Unlock()
	if !slices.Equal(got, []string{"x1", "x2", "x3"}) {
		t.Fatalf("handled %q: x3 must wait for x2", got)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.d) == 0 {
		t.Fatal("a failed update must be backed off before it is tried again")
	}
}

func TestAConflictIsBackedOffNotHotLooped(t *testing.T) {
	srv := telegramtest.New(t)
	w := newWaits()
	p := poller.New(client(t, srv), store(), func(context.Context, *models.Update) error { return nil },
		poller.WithLongPoll(30*time.Second), poller.WithWait(w.wait))
	start(t, p)
	ctx := testenv.Context(t)
	// The first getUpdates returns at once (the inbox waits on it); the
	// second is the long poll.
	if _, err := srv.WaitCalls(ctx, "getUpdates", 2); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitPolling(ctx); err != nil {
		t.Fatal(err)
	}
	// Another instance starts polling: Telegram ends ours with 409.
	other := client(t, srv)
	go func() { _, _ = other.GetUpdates(context.Background(), 0, 0) }()
	select {
	case d := <-w.ch:
		if d < 5*time.Second {
			t.Fatalf("conflict back-off %v, want at least 5 s", d)
		}
	case <-ctx.Done():
		t.Fatal("no back-off within a minute of a 409")
	}
}

func TestAWebhookIsDeletedBeforePollingKeepingPendingUpdates(t *testing.T) {
	srv := telegramtest.New(t)
	srv.SetWebhookState("https://old.example/webhook")
	srv.Push(telegramtest.Text(1, 1, "queued while the webhook was set"))
	rec := newRecorder()
	start(t, poller.New(client(t, srv), store(), func(_ context.Context, u *models.Update) error { rec.add(u); return nil },
		poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait)))
	rec.waitFor(t, 1)
	calls := srv.Calls("deleteWebhook")
	if len(calls) != 1 || calls[0].Params["drop_pending_updates"] == "true" {
		t.Fatalf("deleteWebhook calls %+v, want one that keeps pending updates", calls)
	}
}

// An update with nothing readable but its id (its message no object).
func TestAnUndecodableUpdateIsPassedAndPollingGoesOn(t *testing.T) {
	srv := telegramtest.New(t)
	rec := newRecorder()
	var bare []int64
	var mu sync.Mutex
	handle := func(_ context.Context, u *models.Update) error {
		if u.Message == nil { // what the client makes of an update it cannot decode
			mu.Lock()
			bare = append(bare, u.ID)
			mu.Unlock()
			return nil
		}
		rec.add(u)
		return nil
	}
	srv.PushRaw(t,
		telegramtest.Recorded(t, "update_group_text.json"),
		json.RawMessage(`{"update_id":900002,"message":"not a message"}`),
		telegramtest.Recorded(t, "update_group_text_after.json"))
	start(t, poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(newWaits().wait)))
	rec.waitFor(t, 2)
	srv.Push(telegramtest.Text(2, 2, "later, another chat"))
	rec.waitFor(t, 1)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(bare, []int64{900002}) {
		t.Fatalf("bare updates handed on: %v, want the undecodable one, once", bare)
	}
	if err := testenv.Eventually(10*time.Second, func() error {
		if n := srv.Pending(); n > 1 {
			return fmt.Errorf("%d updates still pending: the offset must pass the undecodable one", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestAChatInAFloodWaitHoldsBackOnlyItself(t *testing.T) {
	srv := telegramtest.New(t)
	rec := newRecorder()
	var once sync.Once
	handle := func(_ context.Context, u *models.Update) error {
		if u.Message.Chat.ID == -100 {
			flooded := false
			once.Do(func() { flooded = true })
			if flooded {
				return fmt.Errorf("sendMessage: %w", &app.FloodError{RetryAfter: 7 * time.Second})
			}
		}
		rec.add(u)
		return nil
	}
	release := make(chan struct{})
	waited := make(chan time.Duration, 10)
	wait := func(ctx context.Context, d time.Duration) error {
		waited <- d
		select {
		case <-release:
		case <-ctx.Done():
		}
		return ctx.Err()
	}
	srv.Push(telegramtest.Text(-100, 1, "group"))
	start(t, poller.New(client(t, srv), store(), handle, poller.WithLongPoll(time.Second), poller.WithWait(wait)))
	if d := <-waited; d != 7*time.Second {
		t.Fatalf("the flooded chat waits %v, want Telegram's 7 s", d)
	}
	srv.Push(telegramtest.Text(2, 2, "private"))
	rec.waitFor(t, 1) // handled while the group waits
	close(release)
	rec.waitFor(t, 1) // the group's update, after its wait: not dropped
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.byChat[2]) != 1 || len(rec.byChat[-100]) != 1 {
		t.Fatalf("handled %v", rec.byChat)
	}
}
