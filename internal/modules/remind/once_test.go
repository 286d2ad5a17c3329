package remind_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
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
