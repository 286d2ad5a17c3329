package remind_test

import (
	"encoding/json"
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
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const refusedFull = "You have 50 reminders pending, the most I keep: cancel one with /remind_list first."

// sayAll delivers every update at once (one after another with atOnce
// false), and each that failed again (as Telegram redelivers it) until it
// is handled.
func sayAll(t *testing.T, b *apptest.Bot, ups []*models.Update, atOnce bool) {
	t.Helper()
	var wg sync.WaitGroup
	for _, u := range ups {
		if !atOnce {
			wg.Wait()
		}
		wg.Go(func() {
			for try := 0; try < 20; try++ {
				if b.Handle(u) == nil {
					return
				}
			}
			t.Errorf("update %d never handled", u.ID)
		})
	}
	wg.Wait()
}

// Sixty /remind sent at once by one user in sixty groups: fifty are set,
// ten refused with the bound, on every backend. The bound is the user's,
// across chats, and holds under concurrency (one compare-and-swap on the
// user's record counts and takes).
func TestAUsersBoundHoldsAcrossChatsAndAtOnce(t *testing.T) {
	backendtest.Each(t, func(t *testing.T, p storage.KVProvider) {
		clk := apptest.NewClock(apptest.T0)
		b := apptest.NewOnStore(t, p, telegramtest.New(t), nil, []app.Factory{remind.Factory}, core.WithClock(clk.Now))
		var ups []*models.Update
		for i := range 60 {
			ups = append(ups, telegramtest.Text(-(5000+int64(i)), apptest.User, fmt.Sprintf("/remind %dh r%d", i+1, i)))
		}
		atOnce := backendtest.AtomicValueCAS(t, p)
		if !atOnce {
			t.Log(backendtest.FerretDBLimit + ": the sixty come one after another")
		}
		sayAll(t, b, ups, atOnce)
		set, refused := 0, 0
		for _, m := range b.Srv.Messages() {
			switch {
			case strings.HasPrefix(m.Text, "⏰ I will remind you"):
				set++
			case m.Text == refusedFull:
				refused++
			}
		}
		if set != 50 || refused != 10 {
			t.Fatalf("%d set, %d refused; want 50 set and 10 refused", set, refused)
		}
		b.Expect(-6000, apptest.User, "/remind 2d one more", refusedFull)
	})
}

// fifty sets fifty reminders for apptest.User, one in each of fifty groups.
func fifty(b *apptest.Bot) {
	for i := range 50 {
		b.MustSay(-(7000 + int64(i)), apptest.User, fmt.Sprintf("/remind %dh r%d", i+1, i))
	}
}

// A cancelled reminder no longer counts: the user may set another at once.
func TestACancelledReminderFreesItsPlaceAtOnce(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	fifty(b)
	b.Expect(apptest.Group, apptest.User, "/remind 2d one more", refusedFull)
	if _, err := b.Press(-7049, apptest.User, "Cancel"); err != nil {
		t.Fatal(err)
	}
	b.MustSay(apptest.Group, apptest.User, "/remind 2d one more")
	if got := b.Last(); !strings.HasPrefix(got, "⏰ I will remind you") {
		t.Fatalf("after a cancel: %q; want the reminder set", got)
	}
}

// A user's record written before it counted the reminders (an older
// bot's) starts from the reminders pending: the bound holds for them too.
func TestTheBoundCountsRemindersSetBeforeTheRecordCounted(t *testing.T) {
	b, _ := apptest.NewModule(t, remind.Factory, nil)
	fifty(b)
	if err := b.Store.For(remind.Name).Put(t.Context(), fmt.Sprintf("asked:%d", apptest.User), []byte(`{"applied":[]}`)); err != nil {
		t.Fatal(err)
	}
	b.Expect(apptest.Group, apptest.User, "/remind 2d one more", refusedFull)
}

// A reminder that came no longer counts, nor one whose chat is gone (the
// engine dropped its timer): their places are free again.
func TestRemindersThatCameOrWhoseChatWentFreeTheirPlaces(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	fifty(b)
	b.Expect(apptest.Group, apptest.User, "/remind 2d one more", refusedFull)
	// The bot is removed from the group of the 50th (holds are let go once stale).
	var kicked models.Update
	if err := json.Unmarshal(telegramtest.Recorded(t, "update_my_chat_member_kicked_supergroup.json"), &kicked); err != nil {
		t.Fatal(err)
	}
	kicked.ID, kicked.MyChatMember.Chat.ID = 0, -7049
	if err := b.Handle(&kicked); err != nil {
		t.Fatal(err)
	}
	clk.Add(11 * time.Minute)
	b.MustSay(apptest.Group, apptest.User, "/remind 2d one more")
	if got := b.Last(); !strings.HasPrefix(got, "⏰ I will remind you") {
		t.Fatalf("after the chat went: %q; want the reminder set", got)
	}
	b.Expect(apptest.Group, apptest.User, "/remind 2d and more", refusedFull)
	// The first one (1h) comes: its place is free.
	for range 50 {
		minute(t, b, clk)
	}
	if len(reminders(b)) != 1 {
		t.Fatalf("reminders %v; want the first", reminders(b))
	}
	b.MustSay(apptest.Group, apptest.User, "/remind 2d and more")
	if got := b.Last(); !strings.HasPrefix(got, "⏰ I will remind you") {
		t.Fatalf("after one came: %q; want the reminder set", got)
	}
}
