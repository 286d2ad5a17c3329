package coin

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A Vietnamese user (Telegram's language_code vi) reads the coin market in
// Vietnamese, its money and quantities as Vietnamese writes numbers.
func TestAVietnameseUserTradesCoinsInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/coin_stats", "Bạn chưa có danh mục coin. Bắt đầu bằng /coin_topup 1000 nhé."},
		{"/coin_price btc", "BTC: 60.000,50\u00a0$ (Binance)"},
		{"/coin_topup 1000", "Đã nạp 1.000,00\u00a0$. Tiền mặt: 1.000,00\u00a0$."},
		{"/coin_buy BTC 100", "Đã mua 0,00166665 BTC giá 60.000,50\u00a0$, tổng 100,00\u00a0$. Tiền mặt: 900,00\u00a0$."},
		{"/coin_buy BTC 5000", "Chưa thực hiện: không đủ tiền mặt: cần 5.000,00, hiện có 900,00."},
		{"/coin_buy BTC", "Cách dùng: /coin_buy <mã> <số usd>, ví dụ /coin_buy BTC 100"},
		{"/coin_stats", "0,00166665 BTC: 100,00\u00a0$ (giá vốn 100,00\u00a0$, lãi/lỗ 0,00\u00a0$)\nTiền mặt: 900,00\u00a0$\nTổng: 1.000,00\u00a0$ (đã nạp 1.000,00\u00a0$, lãi/lỗ 0,00\u00a0$)"},
	})
}

// The board and its buttons, and a price card, read in Vietnamese for a
// Vietnamese user.
func TestAVietnameseUserReadsTheBoardAndCardsInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	b.Expect(apptest.PrivateChat, apptest.User, "/coin_top join",
		"Bạn đã lên bảng xếp hạng coin: /coin_top của bất kỳ ai trong cuộc trò chuyện riêng sẽ hiện tên, giá trị và thay đổi 7 ngày của bạn. /coin_top leave để rời bảng.")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_top")
	board := b.Last()
	for _, want := range []string{"🏆 Bảng xếp hạng coin công khai, theo giá trị: 1 thành viên\n", ": 1.000,00\u00a0$ (7 ngày: mới)"} {
		if !strings.Contains(board, want) {
			t.Errorf("board %q lacks %q", board, want)
		}
	}
	_, rows, ok := b.Srv.Keyboard(apptest.PrivateChat)
	if !ok || rows[0][0].Text != "📊 Theo thay đổi 7 ngày" || rows[len(rows)-1][0].Text != "Rời bảng xếp hạng" {
		t.Errorf("board buttons %+v", rows)
	}
	card := b.Inline(apptest.User, "btc").Results[0]
	for _, want := range []string{"BTC: 60.000,50\u00a0$ (Binance)", "Giá lúc 29/11/2026 19:00", "Biểu đồ: /coin_chart BTC"} {
		if !strings.Contains(card.Text, want) {
			t.Errorf("card %q lacks %q", card.Text, want)
		}
	}
	if card.Title != "Coin BTC" {
		t.Errorf("card title %q", card.Title)
	}
}

// The asking sell speaks Vietnamese: the question, a refused amount and
// "tất cả" for every unit held.
func TestAVietnameseUserIsAskedInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_buy ETH 300")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{Text: "/coin_sell", Want: "Mã nào? (/cancel để dừng)"},
		{Text: "b$c", Want: "Không phải mã hợp lệ: \"b$c\". Mã nào? (/cancel để dừng)"},
		{Text: "eth", Want: "ETH: Bán bao nhiêu? Một số lượng, ví dụ 0.5, hoặc tất cả"},
		{Text: "0.000000001", Want: "\"0.000000001\": quá nhiều chữ số thập phân: tối đa 8. ETH: Bán bao nhiêu? Một số lượng, ví dụ 0.5, hoặc tất cả"},
		{Text: "tất cả", Want: "Đã bán 0,1 ETH giá 3.000,00\u00a0$, thu về 300,00\u00a0$. Tiền mặt: 1.000,00\u00a0$."},
		{Text: "/coin_buy ETH 30", Want: "Đã mua 0,01 ETH giá 3.000,00\u00a0$, tổng 30,00\u00a0$. Tiền mặt: 970,00\u00a0$."},
		{Text: "/coin_sell ETH tất cả", Want: "Đã bán 0,01 ETH giá 3.000,00\u00a0$, thu về 30,00\u00a0$. Tiền mặt: 1.000,00\u00a0$."},
	})
}

// The portfolio's value chart reads in Vietnamese: its toasts, its
// title and caption, money and dates as Vietnamese writes them.
func TestAVietnameseUsersValueChartReadsInVietnamese(t *testing.T) {
	b, _, clk := setup(t)
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	fire := func() {
		t.Helper()
		slot := clk.Now().Truncate(24 * time.Hour).Add(17 * time.Hour)
		if _, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_values", slot); err != nil {
			t.Fatal(err)
		}
	}
	clk.Add(5 * time.Hour)
	fire()
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_stats")
	id, rows, _ := b.Srv.Keyboard(apptest.PrivateChat)
	if rows[0][0].Text != "🔄 Làm mới" || rows[0][1].Text != "📈 Biểu đồ" {
		t.Fatalf("stats buttons %+v", rows)
	}
	press := func() {
		t.Helper()
		if err := b.Handle(telegramtest.Press(apptest.PrivateChat, apptest.User, id, rows[0][1].CallbackData)); err != nil {
			t.Fatal(err)
		}
	}
	press()
	if got := lastAnswer(b); !strings.HasPrefix(got, "Giá trị danh mục được ghi mỗi ngày một lần") {
		t.Fatalf("one day recorded: toast %q", got)
	}
	clk.Add(24 * time.Hour)
	fire()
	press()
	photos := b.Srv.Photos()
	want := "Danh mục coin của bạn: 1.000,00\u00a0$ ngày 30/11/2026 (đã nạp 1.000,00\u00a0$)\n2 giá trị theo ngày từ 29/11/2026 đến 30/11/2026"
	if len(photos) != 1 || !strings.HasPrefix(photos[0].Caption, want) {
		t.Fatalf("%d photos; caption %q\nwant %q...", len(photos), photos[len(photos)-1].Caption, want)
	}
}

// An alert a Vietnamese user sets speaks Vietnamese: its replies, its
// list and button, and the message it fires with into the chat, money and
// time as Vietnamese writes them.
func TestAnAlertFiredToAVietnameseChatSpeaksVietnamese(t *testing.T) {
	b, f, clk := setup(t)
	b.Speaks(apptest.User, "vi")
	chat := apptest.PrivateChat
	b.Converse(chat, apptest.User, []apptest.Step{
		{"/coin_alert BTC", "Cách dùng: /coin_alert <coin> above|below <giá>, ví dụ /coin_alert BTC above 120000"},
		{"/coin_alert BTC above 50000", "BTC đã lên trên 50.000,00\u00a0$: hiện 60.000,50\u00a0$ (Binance). Cảnh báo giá chỉ kích hoạt khi giá chạm mức đã đặt."},
		{"/coin_alert BTC above 61000", "🔔 Đã đặt cảnh báo giá: BTC từ 61.000,00\u00a0$ trở lên (hiện 60.000,50\u00a0$, Binance). Cảnh báo kích hoạt một lần, tại đây, khi giá chạm mức này. /coin_alerts để xem các cảnh báo của bạn."},
		{"/coin_alerts", "Cảnh báo giá coin của bạn (1/20):\n1. BTC từ 61.000,00\u00a0$ trở lên"},
	})
	if got := b.Buttons(chat); got != "[❌ Hủy BTC từ 61.000,00\u00a0$ trở lên]" {
		t.Fatalf("buttons %q", got)
	}
	f.mu.Lock()
	f.prices["BTC"] = "61000"
	f.mu.Unlock()
	clk.Add(time.Minute)
	if _, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "coin_alerts", clk.Now().Truncate(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.App.Timers().Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := "🔔 BTC đã tăng đến 61.000,00\u00a0$ hoặc cao hơn: 61.000,00\u00a0$ (Binance, 29/11/2026 19:01).\nCảnh báo giá do User đặt; cảnh báo này giờ đã được gỡ."
	if got := b.Last(); got != want {
		t.Fatalf("fired %q\nwant  %q", got, want)
	}
	if langs := b.App.Catalog().Speaks(strings.Split(want, "\n")[0]); !slices.Equal(langs, []app.Lang{app.Vietnamese}) {
		t.Fatalf("the fired alert speaks %v; want Vietnamese only", langs)
	}
}
