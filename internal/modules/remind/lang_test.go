package remind_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
)

// A Vietnamese user sets, lists, cancels and receives reminders in
// Vietnamese: dates as Vietnamese read them, the delivered reminder in
// the chat's language.
func TestAVietnameseUserIsRemindedInVietnamese(t *testing.T) {
	b, clk := apptest.NewModule(t, remind.Factory, nil)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/remind 2m uống nước", Want: "⏰ Mình sẽ nhắc bạn lúc 19:02 (giờ Việt Nam)."},
		{Text: "/remind 1 ngày họp", Want: "⏰ Mình sẽ nhắc bạn lúc 19:00 ngày 30/11/2026 (giờ Việt Nam)."},
		{Text: "/remind soon hi", Want: "Mình không đọc được thời gian đó. Bạn thử: 10 phút nữa, sau 2 tiếng, nửa tiếng nữa, lúc 19h30, 7 giờ tối, 8h sáng mai, hoặc ngày 31/01/2027 lúc 9h (giờ Việt Nam)."},
		{Text: "/remind 400d hi", Want: "Xa quá: mình giữ lời nhắc tối đa 366 ngày (366d, hoặc một ngày trong khoảng đó)."},
		{Text: "/remind_list", Want: "Các lời nhắc đang chờ của bạn ở đây (giờ Việt Nam):\n1. 19:02: uống nước\n2. 30/11/2026 19:00: họp\n"},
	})
	if got := b.Buttons(apptest.PrivateChat); got != "[Hủy 1] [Hủy 2]" {
		t.Fatalf("buttons %q", got)
	}
	if _, err := b.Press(apptest.PrivateChat, apptest.User, "Hủy 2"); err != nil {
		t.Fatal(err)
	}
	if got := b.Last(); got != "Đã hủy lời nhắc: mình sẽ không gửi nữa." {
		t.Fatalf("after Hủy: %q", got)
	}
	for range 3 {
		minute(t, b, clk)
	}
	var got []string
	for _, m := range b.Srv.Messages() {
		if strings.HasPrefix(m.Text, "⏰ Lời nhắc") {
			got = append(got, m.Text)
		}
	}
	if want := []string{"⏰ Lời nhắc cho @user: uống nước"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("delivered %q, want %q", got, want)
	}
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/remind", Want: "Bạn muốn mình nhắc điều gì? (/cancel để dừng)"},
		{Text: "uống thuốc", Want: "Khi nào? 10 phút nữa, sau 2 tiếng, 1 tiếng 30 phút nữa, lúc 19h30, 7 giờ tối, ngày mai 8h, hoặc ngày 31/01 lúc 9h (giờ Việt Nam)."},
		{Text: "10 phút", Want: "⏰ Mình sẽ nhắc bạn lúc 19:13 (giờ Việt Nam)."},
	})
}
