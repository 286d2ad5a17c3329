package gold

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// A Vietnamese user (Telegram's language_code vi) reads the gold market in
// Vietnamese: lượng, dong as ₫, numbers as Vietnamese writes them.
func TestAVietnameseUserTradesGoldInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/gold_price", "Vàng SJC mỗi lượng: giá mua vào 84.500.000\u00a0₫, giá bán ra 86.500.000\u00a0₫ (SJC via VNAppMob)"},
		{"/gold_topup 100000000", "Đã nạp 100.000.000\u00a0₫. Tiền mặt: 100.000.000\u00a0₫."},
		{"/gold_buy 1.1", "Đã mua 1,1 lượng giá 86.500.000\u00a0₫, tổng 95.150.000\u00a0₫. Tiền mặt: 4.850.000\u00a0₫."},
		{"/gold_buy 0.05", "Chưa thực hiện: quá nhiều chữ số thập phân: tối đa 1 (tính theo lượng, lẻ đến chỉ: ví dụ 0.5)."},
		{"/gold_stats", "1,1 lượng: 92.950.000\u00a0₫ (giá vốn 95.150.000\u00a0₫, lãi/lỗ -2.200.000\u00a0₫)\nTiền mặt: 4.850.000\u00a0₫\nTổng: 97.800.000\u00a0₫ (đã nạp 100.000.000\u00a0₫, lãi/lỗ -2.200.000\u00a0₫)"},
	})
}
