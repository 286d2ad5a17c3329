package trading

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// A price's moment reads on its reader's clock: Vietnam time until they
// choose another (/timezone), named in English, as Vietnamese writes dates.
func TestAPricesMomentReadsOnItsReadersClock(t *testing.T) {
	at := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC) // 08:00 in Vietnam
	berlin := locale.LoadZone("Europe/Berlin")
	for _, c := range []struct {
		name          string
		w             app.Words
		moment, clock string
	}{
		{"English, Vietnam time", sharedWords(app.English), "08:00 ICT, 07 Dec 2026", "08:00 ICT"},
		{"Vietnamese, Vietnam time", sharedWords(app.Vietnamese), "07/12/2026 08:00", "08:00"},
		{"English, Berlin chosen", sharedWords(app.English).InZone(berlin), "02:00 CET, 07 Dec 2026", "02:00 CET"},
		{"Vietnamese, an offset chosen", sharedWords(app.Vietnamese).InZone(locale.LoadZone("UTC+09:00")), "07/12/2026 10:00", "10:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Moment(c.w, at); got != c.moment {
				t.Errorf("Moment = %q, want %q", got, c.moment)
			}
			if got := Clock(c.w, at); got != c.clock {
				t.Errorf("Clock = %q, want %q", got, c.clock)
			}
		})
	}
}
