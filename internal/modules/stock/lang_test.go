package stock

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// A Vietnamese user (Telegram's language_code vi) reads the stock market
// in Vietnamese, dong as ₫ and numbers as Vietnamese writes them.
func TestAVietnameseUserTradesStocksInVietnamese(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/stock_price fpt", "FPT: 71.000\u00a0₫ (KBS)"},
		{"/stock_topup 100000000", "Đã nạp 100.000.000\u00a0₫. Tiền mặt: 100.000.000\u00a0₫."},
		{"/stock_buy FPT 1300", "Đã mua 1.300 FPT giá 71.000\u00a0₫, tổng 92.300.000\u00a0₫. Tiền mặt: 7.700.000\u00a0₫."},
		{"/stock_buy FPT 150", "Chưa thực hiện: số lượng phải là bội số của lô 100."},
		{"/stock_stats", "1.300 FPT: 92.300.000\u00a0₫ (giá vốn 92.300.000\u00a0₫, lãi/lỗ 0\u00a0₫)\nTiền mặt: 7.700.000\u00a0₫\nTổng: 100.000.000\u00a0₫ (đã nạp 100.000.000\u00a0₫, lãi/lỗ 0\u00a0₫)"},
	})
}
