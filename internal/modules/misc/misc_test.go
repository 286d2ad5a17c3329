package misc_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
)

func TestPingAnswersAndIsRecordedForMstats(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)
	b := apptest.New(t, []app.Factory{misc.Factory}, core.WithClock(func() time.Time { return at }))

	b.Expect(apptest.PrivateChat, apptest.Admin, "/mstats", "No /ping yet.")
	b.Expect(apptest.Group, apptest.User, "/ping", "pong")
	b.MustSay(apptest.PrivateChat, apptest.Admin, "/mstats")
	if got := b.Last(); !strings.Contains(got, "29 Nov 2026 15:30 (Vietnam time)") || !strings.Contains(got, "user 3") || !strings.Contains(got, "chat -100") {
		t.Fatalf("/mstats = %q", got)
	}
}

func TestPingDoesNotAnswerWhenItCannotRecord(t *testing.T) {
	b := apptest.New(t, []app.Factory{misc.Factory})
	b.Store.SetDown(true)
	if err := b.Say(apptest.PrivateChat, apptest.User, "/ping"); err == nil {
		t.Fatal("a ping that could not be recorded must fail so it is retried")
	}
	if len(b.Replies()) != 0 {
		t.Fatalf("replies = %q", b.Replies())
	}
}

// /cron_status is the owner's: it answers what the runtime reads of the
// cron jobs' records (naming the store), and says so where there is none.
func TestCronStatusIsTheOwnersAnswerFromTheRuntime(t *testing.T) {
	const report = "Cron jobs, from the bolt file /data/miti99bot.db:\n\nlolschedule_daily_push\nlast success: never\nlast failure: never\nattempts at the latest slot: 0\nnext fire: 2026-12-04T01:00:00Z"
	fromRuntime := core.WithCronStatus(func(context.Context) (string, error) { return report, nil })
	failing := core.WithCronStatus(func(context.Context) (string, error) { return "", errors.New("store down") })
	tests := []struct {
		name    string
		opts    []core.Option
		user    int64
		want    string // "" for no answer
		wantErr bool
	}{
		{"the owner gets the runtime's report", []core.Option{fromRuntime}, apptest.Owner, report, false},
		{"an admin gets no answer", []core.Option{fromRuntime}, apptest.Admin, "", false},
		{"a user gets no answer", []core.Option{fromRuntime}, apptest.User, "", false},
		{"without a report from the runtime it says so", nil, apptest.Owner, "This runtime keeps no cron status.", false},
		{"an unreadable store fails the update, to be retried", []core.Option{failing}, apptest.Owner, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.New(t, []app.Factory{misc.Factory}, tt.opts...)
			err := b.Say(apptest.PrivateChat, tt.user, "/cron_status")
			if (err != nil) != tt.wantErr || b.Last() != tt.want {
				t.Fatalf("/cron_status = %q, %v; want %q (error %v)", b.Last(), err, tt.want, tt.wantErr)
			}
		})
	}
}

// A Vietnamese client reads misc in Vietnamese: /mstats before and after a
// /ping, and the owner's /cron_status where the runtime keeps none.
func TestAVietnameseUserReadsMiscInVietnamese(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)
	b := apptest.New(t, []app.Factory{misc.Factory}, core.WithClock(func() time.Time { return at }))
	for _, u := range []int64{apptest.Admin, apptest.Owner, apptest.User} {
		b.Speaks(u, "vi")
	}
	b.Expect(apptest.PrivateChat, apptest.Admin, "/mstats", "Chưa có ai dùng /ping.")
	b.Expect(apptest.PrivateChat, apptest.User, "/ping", "pong")
	b.Expect(apptest.PrivateChat, apptest.Admin, "/mstats", "Lần /ping gần nhất: 29/11/2026 15:30 (giờ Việt Nam), do người dùng 3 trong cuộc trò chuyện 3")
	b.Expect(apptest.PrivateChat, apptest.Owner, "/cron_status", "Môi trường chạy này không lưu trạng thái cron.")
}
