package coin

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
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
