package remind_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// The Cancel button pressed after the reminder came, or again a day after
// it was cancelled, says so.
func TestACancelPressedAgainLaterGetsAClearAnswer(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.MustSay(apptest.Group, apptest.User, "/remind 1m soon")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	data := rows[0][0].CallbackData
	minute(t, b, clk)
	minute(t, b, clk)
	if len(reminders(b)) != 1 {
		t.Fatal("the reminder did not come")
	}
	clk.Add(24 * time.Hour)
	toast, _, err := b.PressData(apptest.Group, apptest.User, id, data)
	if err != nil || toast != "This reminder is no longer pending: it was sent or cancelled already." {
		t.Fatalf("a press the next day: %q, %v", toast, err)
	}
}

func TestACancelPressedAgainTheNextDayGetsAClearAnswer(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.MustSay(apptest.Group, apptest.User, "/remind 1h later")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	data := rows[0][0].CallbackData
	if _, _, err := b.PressData(apptest.Group, apptest.User, id, data); err != nil || b.Last() != "Reminder cancelled: it will not be sent." {
		t.Fatalf("the first press: %q, %v", b.Last(), err)
	}
	clk.Add(24 * time.Hour)
	toast, _, err := b.PressData(apptest.Group, apptest.User, id, data)
	if err != nil || toast != "This reminder is no longer pending: it was sent or cancelled already." {
		t.Fatalf("the same press the next day: %q, %v", toast, err)
	}
}

// A Cancel pressed while the reminder is being sent: exactly one of the
// cancel confirmed (and no reminder) or the reminder sent (and the press
// told it is too late).
func TestACancelPressedWhileTheReminderIsSentIsDecidedOnce(t *testing.T) {
	srv := telegramtest.New(t)
	clk := apptest.NewClock(apptest.T0)
	b := apptest.NewWithServer(t, srv, []app.Factory{remind.Factory}, core.WithClock(clk.Now))
	b.MustSay(apptest.Group, apptest.User, "/remind 1m race")
	id, rows, _ := srv.Keyboard(apptest.Group)
	data := rows[0][0].CallbackData
	clk.Add(2 * time.Minute)
	var wg sync.WaitGroup
	var toast string
	wg.Go(func() {
		if _, err := b.App.Timers().Tick(context.Background()); err != nil {
			t.Error(err)
		}
	})
	wg.Go(func() {
		var err error
		if toast, _, err = b.PressData(apptest.Group, apptest.User, id, data); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	if _, err := b.App.Timers().Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancelled := b.Last() == "Reminder cancelled: it will not be sent."
	sent := len(reminders(b))
	switch {
	case cancelled && sent == 0:
	case !cancelled && sent == 1 && (toast == "Too late: this reminder is being sent now." ||
		toast == "This reminder is no longer pending: it was sent or cancelled already."):
	default:
		t.Fatalf("cancel confirmed %v, toast %q, reminders sent %d", cancelled, toast, sent)
	}
}

func TestTwoReplicasTickingTheSameMinuteSendEachReminderOnce(t *testing.T) {
	srv := telegramtest.New(t)
	store := memory.New()
	clk := apptest.NewClock(apptest.T0)
	a := apptest.NewOnStore(t, store, srv, nil, []app.Factory{remind.Factory}, core.WithClock(clk.Now))
	b := apptest.NewOnStore(t, store, srv, nil, []app.Factory{remind.Factory}, core.WithClock(clk.Now))
	for i := range 20 {
		a.MustSay(apptest.Group, apptest.User, fmt.Sprintf("/remind %dm r%d", 1+i%3, i))
	}
	for range 4 {
		clk.Add(time.Minute)
		var wg sync.WaitGroup
		for _, bot := range []*apptest.Bot{a, b, a, b} {
			wg.Go(func() {
				if _, err := bot.App.Timers().Tick(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	got := reminders(a)
	seen := map[string]bool{}
	for _, r := range got {
		if seen[r] {
			t.Errorf("sent twice: %s", r)
		}
		seen[r] = true
	}
	if len(got) != 20 {
		t.Fatalf("%d reminders sent, want 20", len(got))
	}
}

func TestAStoreOutageAtTheDueMinuteSendsItLateThenOnce(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.MustSay(apptest.Group, apptest.User, "/remind 1m late")
	b.Store.SetDown(true)
	clk.Add(2 * time.Minute)
	if _, err := b.Dispatcher(clk.Now).Dispatch(context.Background(), core.TimersJob, clk.Now().Truncate(time.Minute)); err == nil {
		t.Fatal("the tick in the outage reported no error")
	}
	b.Store.SetDown(false)
	for range 3 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 1 {
		t.Fatalf("reminders %v, want one, late", got)
	}
}

func TestAChatMigratedToASupergroupGetsItsReminderThere(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	const group, super = -7, -1007
	b.MustSay(group, apptest.User, "/remind 5m in the new chat")
	migrated := &models.Update{Message: &models.Message{ID: 9, Chat: models.Chat{ID: group, Type: models.ChatTypeGroup}, MigrateToChatID: super}}
	if err := b.Handle(migrated); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		minute(t, b, clk)
	}
	if got := reminders(b); len(got) != 1 || !strings.HasPrefix(got[0], fmt.Sprintf("%d/0:", super)) {
		t.Fatalf("reminders %v, want one in the supergroup", got)
	}
}

// A Cancel press whose run died once it had cancelled the reminder (the
// store gone before the run recorded its end) is confirmed again when
// Telegram delivers the press again: the press is applied once by its
// update id. Another press of the button is told it is no longer pending.
func TestACancelPressDeliveredAgainAfterItCancelledIsConfirmedAgain(t *testing.T) {
	store := &diesAfterCancel{KVProvider: memory.New()}
	clk := apptest.NewClock(apptest.T0)
	b := apptest.NewOnStore(t, store, telegramtest.New(t), nil, []app.Factory{remind.Factory}, core.WithClock(clk.Now))
	b.MustSay(apptest.Group, apptest.User, "/remind 1h later")
	id, rows, _ := b.Srv.Keyboard(apptest.Group)
	u := telegramtest.Press(apptest.Group, apptest.User, id, rows[0][0].CallbackData)
	u.ID = 900_002
	store.armed.Store(true)
	bad := telegramtest.Failure{Code: 502, Description: "Bad Gateway"}
	b.Srv.FailNext("sendMessage", bad, bad, bad, bad, bad, bad) // nor did its confirmation get out
	if err := b.Handle(u); err == nil {
		t.Fatal("the first run lost its store: the press must fail, so Telegram delivers it again")
	}
	store.down.Store(false)
	clk.Add(3 * time.Minute) // past the run's stale mark
	sent, toasts := len(b.Replies()), len(b.Toasts())
	err := b.Handle(u)
	if replies := b.Replies()[sent:]; err != nil || len(replies) != 1 || replies[0] != "Reminder cancelled: it will not be sent." {
		t.Fatalf("the press delivered again replied %q, toasts %q, %v; want the cancel confirmed", replies, b.Toasts()[toasts:], err)
	}
	toast, _, err := b.PressData(apptest.Group, apptest.User, id, rows[0][0].CallbackData)
	if err != nil || toast != "This reminder is no longer pending: it was sent or cancelled already." {
		t.Fatalf("another press: %q, %v", toast, err)
	}
}

// diesAfterCancel is a store that goes down, once armed, right after a
// timer's cancel ended (its last write, the module index's swap).
type diesAfterCancel struct {
	storage.KVProvider
	armed, down atomic.Bool
}

func (p *diesAfterCancel) For(ns string) storage.KVStore {
	return &dyingNS{KVStore: p.KVProvider.For(ns), p: p, ns: ns}
}

type dyingNS struct {
	storage.KVStore
	p  *diesAfterCancel
	ns string
}

var errStoreGone = errors.New("the store is gone")

func (s *dyingNS) gone() error {
	if s.p.down.Load() {
		return errStoreGone
	}
	return nil
}

func (s *dyingNS) Get(ctx context.Context, k string) ([]byte, error) {
	if err := s.gone(); err != nil {
		return nil, err
	}
	return s.KVStore.Get(ctx, k)
}

func (s *dyingNS) GetJSON(ctx context.Context, k string, dst any) error {
	if err := s.gone(); err != nil {
		return err
	}
	return s.KVStore.GetJSON(ctx, k, dst)
}

func (s *dyingNS) Put(ctx context.Context, k string, v []byte) error {
	if err := s.gone(); err != nil {
		return err
	}
	return s.KVStore.Put(ctx, k, v)
}

func (s *dyingNS) PutJSON(ctx context.Context, k string, v any) error {
	if err := s.gone(); err != nil {
		return err
	}
	return s.KVStore.PutJSON(ctx, k, v)
}

func (s *dyingNS) Delete(ctx context.Context, k string) error {
	if err := s.gone(); err != nil {
		return err
	}
	return s.KVStore.Delete(ctx, k)
}

func (s *dyingNS) List(ctx context.Context, prefix string) ([]string, error) {
	if err := s.gone(); err != nil {
		return nil, err
	}
	return s.KVStore.List(ctx, prefix)
}

func (s *dyingNS) CompareAndSwap(ctx context.Context, k string, old, v []byte) error {
	if err := s.gone(); err != nil {
		return err
	}
	err := s.KVStore.CompareAndSwap(ctx, k, old, v)
	if err == nil && s.ns == storage.CoreNamespace && strings.HasPrefix(k, "timer:by:") && s.p.armed.CompareAndSwap(true, false) {
		s.p.down.Store(true) // the cancel's last write: its index to the kept copy
	}
	return err
}

func (s *dyingNS) CompareAndDelete(ctx context.Context, k string, old []byte) error {
	if err := s.gone(); err != nil {
		return err
	}
	return s.KVStore.CompareAndDelete(ctx, k, old)
}
