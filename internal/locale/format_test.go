package locale_test

import (
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/locale"
)

func TestNumbersMoneyAndTimeReadAsEachLanguageWritesThem(t *testing.T) {
	at := time.Date(2026, 12, 7, 8, 0, 0, 0, time.FixedZone("ICT", 7*3600))
	tests := []struct{ got, want string }{
		{locale.Number(locale.English, "1234567"), "1,234,567"},
		{locale.Number(locale.Vietnamese, "1234567"), "1.234.567"},
		{locale.Number(locale.Vietnamese, "-1234.56"), "-1.234,56"},
		{locale.Number(locale.English, "999.5"), "999.5"},
		{locale.Number(locale.Vietnamese, "0.001"), "0,001"},
		{locale.Float(locale.Vietnamese, 510000000, 2), "510.000.000,00"},
		{locale.Money(locale.Vietnamese, "VND", "1234567"), "1.234.567\u00a0₫"},
		{locale.Money(locale.Vietnamese, "USD", "1234.56"), "1.234,56\u00a0$"},
		{locale.Money(locale.Vietnamese, "USD", "-0.01"), "-0,01\u00a0$"},
		{locale.Money(locale.English, "USD", "-1234.56"), "-$1,234.56"},
		{locale.Money(locale.English, "VND", "1234567"), "1,234,567 VND"},
		{locale.DateTime(locale.Vietnamese, at), "07/12/2026 08:00"},
		{locale.DateTime(locale.English, at), "07 Dec 2026 08:00"},
		{locale.Date(locale.Vietnamese, at), "07/12/2026"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
