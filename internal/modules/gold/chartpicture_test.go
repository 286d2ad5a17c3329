package gold

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// titles keeps the title of each series it is asked to draw: the words
// the drawer prints as the picture's title (draw's newPlot).
type titles struct {
	mu   sync.Mutex
	seen []string
}

func (d *titles) Draw(_ context.Context, c chart.Chart) ([]byte, error) {
	if s, ok := c.(chart.Series); ok {
		d.mu.Lock()
		d.seen = append(d.seen, s.Title)
		d.mu.Unlock()
	}
	return []byte("\x89PNG"), nil
}

// The picture, not only its caption, says what gold's chart is: world
// spot, in VND per luong. "XAU" (dollars per ounce to most readers) is
// the symbol the buttons carry, never the title drawn.
func TestGoldsPictureIsTitledWorldSpotPerLuong(t *testing.T) {
	for _, period := range []string{"1d", "7d", "30d", "1y"} {
		t.Run(period, func(t *testing.T) {
			d := &titles{}
			b, _ := apptest.NewModule(t, Factory(d), apptest.FakeAPIs(t, spotKlines{n: 400, now: apptest.T0}, map[string]string{
				settingVNAppMob: "/vnappmob", trading.BinanceURL.Name: "/binance", settingERAPI: "/erapi",
			}))
			b.MustSay(apptest.Group, apptest.User, "/gold_chart "+period)
			if len(d.seen) != 1 {
				t.Fatalf("drew %q; want one price chart (reply %q)", d.seen, b.Last())
			}
			title := d.seen[0]
			if !strings.HasPrefix(title, "World gold (spot, VND/luong) "+period+": ") || strings.Contains(title, "XAU") {
				t.Fatalf("the picture's title %q; want world spot per luong, no XAU", title)
			}
		})
	}
}
