package boards

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// The board's buttons fit Telegram's 64 bytes for the longest market
// name and any page (MustKeyboard would panic otherwise).
func TestTheBoardsButtonsFit(t *testing.T) {
	d := desk{&trading.Desk{Kit: &trading.Kit{Name: "stock"}}}
	for _, order := range []string{byValue, byChange} {
		for _, private := range []bool{false, true} {
			kb := d.boardKeyboard(app.Words{}, order, 1<<30, 1<<31-1, private, private)
			if len(kb.InlineKeyboard) == 0 {
				t.Fatal("no buttons")
			}
		}
	}
}
