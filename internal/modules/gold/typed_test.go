package gold

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
)

// A Vietnamese user types amounts as Vietnamese writes them (trading.
// ParseAmount through locale.ParseDecimal): 0,5 is half a luong,
// 100.000.000 a hundred million; one that reads two ways is refused,
// saying how to write each.
func TestAVietnameseUsersTypedAmountsReadAsVietnameseWritesThem(t *testing.T) {
	b, _, _ := setup(t)
	b.Speaks(apptest.User, "vi")
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/gold_topup 100.000.000", "Đã nạp 100.000.000\u00a0₫. Tiền mặt: 100.000.000\u00a0₫."},
		{"/gold_buy 0,5", "Đã mua 0,5 lượng giá 86.500.000\u00a0₫, tổng 43.250.000\u00a0₫. Tiền mặt: 56.750.000\u00a0₫."},
		{"/gold_buy 0.5", "Đã mua 0,5 lượng giá 86.500.000\u00a0₫, tổng 43.250.000\u00a0₫. Tiền mặt: 13.500.000\u00a0₫."},
		{"/gold_topup 1.500", "Chưa thực hiện: \"1.500\" có thể hiểu là 1500 hoặc 1,5: hãy gõ theo một trong hai cách viết này."},
	})
}
