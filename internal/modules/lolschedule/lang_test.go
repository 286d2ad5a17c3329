package lolschedule_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// A Vietnamese user reads the schedule in Vietnamese: a day, a week, the
// buttons, a wrong date, subscribing and unsubscribing.
func TestAVietnameseUserReadsTheScheduleInVietnamese(t *testing.T) {
	e := newEnv(t, nil)
	e.Speaks(apptest.User, "vi")
	chat := apptest.PrivateChat
	e.Converse(chat, apptest.User, []apptest.Step{
		{Text: "/lolschedule_today", Want: `<b>Lịch thi đấu LoL, T4 25/11/2026 (giờ Việt Nam)</b>

🏆 <b>LCK</b>
01:00  HLE vs KT · Bo3
15:00  <b>T1</b> 2-1 GEN (chung cuộc) · Bo3

🏆 <b>LPL</b>
17:00  BLG vs JDG (đang đấu, 1-0) · Bo5`},
		{Text: "/lolschedule 01-01-2027", Want: "Không có trận LoL esports nào vào T6 01/01/2027."},
		{Text: "/lolschedule tomorrow", Want: `Ngày "tomorrow" không hợp lệ: hãy dùng ngày dạng 25-12-2026, 25/12/2026 hoặc 25122026.`},
		{Text: "/lolschedule 31-02-2026", Want: `Ngày "31-02-2026" không hợp lệ: 31-02-2026 không phải là một ngày có thật.`},
	})
	if got := e.Buttons(chat); got != "[◀ 31/12] [Hôm nay] [02/01 ▶]" {
		t.Fatalf("the day view's keyboard: %q", got)
	}
	e.MustSay(chat, apptest.User, "/lolschedule_week")
	if got := e.Last(); !strings.HasPrefix(got, "<b>Lịch thi đấu LoL tuần này, 23/11 đến 29/11/2026 (giờ Việt Nam)</b>") || !strings.Contains(got, "\nT2 23/11 16:00  G2 1-2 <b>FNC</b> (chung cuộc) · Bo3\nCN 29/11 23:00") {
		t.Fatalf("the week: %q", got)
	}
	if got := e.Buttons(chat); got != "[◀ Tuần 16/11] [Tuần này] [Tuần 30/11 ▶]" {
		t.Fatalf("the week view's keyboard: %q", got)
	}
	e.Converse(chat, apptest.User, []apptest.Step{
		{Text: "/lolschedule_subscribe", Want: "Đã đăng ký: các trận hôm nay sẽ được gửi đến đây lúc 08:00 mỗi ngày (giờ Việt Nam)."},
		{Text: "/lolschedule_subscribe", Want: "Đã đăng ký rồi: các trận hôm nay được gửi đến đây lúc 08:00 mỗi ngày (giờ Việt Nam)."},
	})
	e.press(t, chat, apptest.User, "🔕 Hủy đăng ký")
	if got := e.lastEdit().Text; got != "Đã hủy đăng ký: ở đây sẽ không nhận lịch thi đấu hằng ngày nữa." {
		t.Fatalf("after Hủy đăng ký: %q", got)
	}
	e.Expect(chat, apptest.User, "/lolschedule_unsubscribe", "Ở đây chưa đăng ký.")
}

// The daily push speaks each chat's language: Vietnamese to a Vietnamese
// user's chat, English to a chat whose language is not known.
func TestThePushSpeaksEachChatsLanguage(t *testing.T) {
	e, d := newPushEnv(t, nil)
	e.Speaks(apptest.User, "vi")
	e.MustSay(apptest.PrivateChat, apptest.User, "/lolschedule_subscribe")
	e.subscribe(t, [2]int64{-1, 0})
	if _, err := e.pushDay(t.Context(), d, slot); err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, m := range e.Srv.Messages() {
		if strings.Contains(m.Text, "🏆") {
			got[m.ChatID] = m.Text
		}
	}
	if vi := got[apptest.PrivateChat]; !strings.HasPrefix(vi, "<b>LoL hôm nay, T4 25/11/2026 (giờ Việt Nam)</b>") || !strings.Contains(vi, "15:00  <b>T1</b> 2-1 GEN (chung cuộc) · Bo3") {
		t.Fatalf("the Vietnamese chat's push: %q", vi)
	}
	if en := got[-1]; !strings.HasPrefix(en, "<b>LoL today, Wed 25/11/2026 (ICT)</b>") {
		t.Fatalf("the English chat's push: %q", en)
	}
	if b := e.Buttons(apptest.PrivateChat); b != "[📅 Lịch đầy đủ hôm nay]" {
		t.Fatalf("the Vietnamese push's keyboard: %q", b)
	}
	if b := e.Buttons(-1); b != "[📅 Today's full schedule]" {
		t.Fatalf("the English push's keyboard: %q", b)
	}
}
