package gold

import (
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// A Vietnamese user (Telegram's language_code vi) reads the gold market in
// Vietnamese: lượng, dong as ₫, numbers as Vietnamese writes them.
func TestAVietnameseUserTradesGoldInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/gold_stats", "Bạn chưa có danh mục vàng. Bắt đầu bằng /gold_topup 100000000 nhé."},
		{"/gold_top", "Bạn chưa có danh mục vàng. Bắt đầu bằng /gold_topup 100000000 nhé."},
		{"/gold_price", "Vàng mỗi lượng: giá mua vào 84.500.000\u00a0₫, giá bán ra 86.500.000\u00a0₫ (SJC qua VNAppMob)"},
		{"/gold_topup 100000000", "Đã nạp 100.000.000\u00a0₫. Tiền mặt: 100.000.000\u00a0₫."},
		{"/gold_buy 1.1", "Đã mua 1,1 lượng giá 86.500.000\u00a0₫, tổng 95.150.000\u00a0₫. Tiền mặt: 4.850.000\u00a0₫."},
		{"/gold_buy 0.05", "Chưa thực hiện: quá nhiều chữ số thập phân: tối đa 1 (tính theo lượng, lẻ đến chỉ: ví dụ 0.5)."},
		{"/gold_stats", "1,1 lượng: 92.950.000\u00a0₫ (giá vốn 95.150.000\u00a0₫, lãi/lỗ -2.200.000\u00a0₫)\nTiền mặt: 4.850.000\u00a0₫\nTổng: 97.800.000\u00a0₫ (đã nạp 100.000.000\u00a0₫, lãi/lỗ -2.200.000\u00a0₫)"},
	})
}

// A chart is drawn and captioned in its reader's language, and each
// language's picture is cached apart: a Vietnamese reader right after an
// English one gets Vietnamese, not the English picture kept for a minute.
func TestAChartSpeaksItsReadersLanguage(t *testing.T) {
	b := spotBot(t, spotKlines{n: 84})
	b.MustSay(apptest.Group, apptest.User, "/gold_chart")
	b.Speaks(apptest.Admin, "vi")
	b.MustSay(apptest.PrivateChat, apptest.Admin, "/gold_chart")
	photos := b.Srv.Photos()
	if len(photos) != 2 {
		t.Fatalf("%d photos; want 2", len(photos))
	}
	for i, want := range []struct{ first, end, note string }{
		{"World gold (spot, VND/luong) 7d: ", " VND)", "World spot, not SJC's price"},
		{"Vàng thế giới (giá giao ngay, VND/lượng) 7 ngày: ", "\u00a0₫)", "Giá vàng thế giới, không phải giá SJC"},
	} {
		lines := strings.Split(photos[i].Caption, "\n")
		if !strings.HasPrefix(lines[0], want.first) || !strings.HasSuffix(lines[0], want.end) || !strings.HasPrefix(lines[len(lines)-1], want.note) {
			t.Errorf("photo %d: caption %q; want %q...%q, then %q...", i, photos[i].Caption, want.first, want.end, want.note)
		}
	}
	if vi := photos[1].Caption; !strings.Contains(vi, "nến OHLC từ giá thế giới") && !strings.Contains(vi, "mức giá từ giá thế giới") {
		t.Errorf("the Vietnamese caption's source line is not Vietnamese: %q", vi)
	}
}

// World spot's note, under a stand-in price, reads in Vietnamese with its
// figures as Vietnamese writes them.
func TestWorldSpotsNoteReadsInTheReadersLanguage(t *testing.T) {
	b, f, _ := setup(t)
	f.sjcDown = true
	b.Speaks(apptest.User, "vi")
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_price",
		"Vàng mỗi lượng: giá mua vào 133.885.636\u00a0₫, giá bán ra 133.885.636\u00a0₫ (giá thế giới)\ngiá thế giới 4.433,33 $/oz x 25.048 VND/USD x 37,5/31,1035 oz mỗi lượng")
}

// A chart's refusals read in Vietnamese.
func TestAChartsRefusalsReadInVietnamese(t *testing.T) {
	b := spotBot(t, spotKlines{n: 3})
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/gold_chart 2w", "Khoảng thời gian của biểu đồ là 1d, 7d, 30d hoặc 1y."},
		{"/gold_chart SJC 7d", "Cách dùng: /gold_chart [1d|7d|30d|1y]"},
		{"/gold_chart", "Quá ít giá của Vàng thế giới (giá giao ngay, VND/lượng) trong 7 ngày để vẽ biểu đồ; bạn thử khoảng dài hơn nhé."},
	})
}

// A gold alert reads in Vietnamese, its sources named in Vietnamese too:
// while SJC's source is down the alert set says it waits for SJC's own
// price, and its list says why, since when.
func TestAGoldAlertWaitsInVietnamese(t *testing.T) {
	b, f, clk := setup(t)
	b.Speaks(apptest.User, "vi")
	f.mu.Lock()
	f.sjcDown = true
	f.mu.Unlock()
	clk.Add(time.Minute) // past SJC's cached price
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_alert above 140000000", "🔔 Đã đặt cảnh báo giá: Vàng (mỗi lượng, giá người mua trả) từ 140.000.000\u00a0₫ trở lên "+
		"(hiện chưa có giá từ SJC qua VNAppMob; giá thế giới của thị trường khác báo 133.885.636\u00a0₫: cảnh báo chờ giá của chính thị trường này). "+
		"Cảnh báo kích hoạt một lần, tại đây, khi giá chạm mức này. /gold_alerts để xem các cảnh báo của bạn.")
	clk.Add(time.Minute)
	if _, err := b.Dispatcher(clk.Now).Dispatch(t.Context(), "gold_alerts", clk.Now().Truncate(time.Minute)); err != nil {
		t.Fatal(err)
	}
	b.Expect(apptest.PrivateChat, apptest.User, "/gold_alerts", "Cảnh báo giá vàng của bạn (1/20):\n"+
		"1. Vàng (mỗi lượng, giá người mua trả) từ 140.000.000\u00a0₫ trở lên (đang chờ từ 29/11 19:02: chưa có giá từ nguồn của thị trường (SJC qua VNAppMob); "+
		"giá thế giới là giá của thị trường khác và không kích hoạt cảnh báo)")
}
