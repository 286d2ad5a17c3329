package locale_test

import (
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// A typed number reads as its writer's language writes it, or as the bot
// always read it (a dot before the decimals, no marks between the
// thousands); where the two readings differ, it is refused, never guessed.
func TestATypedNumberReadsAsItsWritersLanguageAndNeverChangesItsOldMeaning(t *testing.T) {
	en, vi := locale.English, locale.Vietnamese
	tests := []struct {
		name string
		lang locale.Lang
		in   string
		want string // the plain decimal; "" when refused
		err  error
	}{
		{"a half typed with a dot is a half to anyone", vi, "0.5", "0.5", nil},
		{"a half typed with a dot is a half in English", en, "0.5", "0.5", nil},
		{"a Vietnamese half has a comma", vi, "0,5", "0.5", nil},
		{"Vietnamese decimals after a comma", vi, "1,5", "1.5", nil},
		{"Vietnamese thousands between dots", vi, "1.234.567", "1234567", nil},
		{"Vietnamese thousands and decimals", vi, "1.234.567,89", "1234567.89", nil},
		{"thousands between spaces, decimals after the comma", vi, "1 234,5", "1234.5", nil},
		{"thousands between no-break spaces", vi, "1\u00a0234\u00a0567", "1234567", nil},
		{"English thousands between commas", en, "1,234.56", "1234.56", nil},
		{"English thousands alone", en, "1,000", "1000", nil},
		{"English thousands between spaces", en, "1 234.5", "1234.5", nil},
		{"plain digits are plain digits", vi, "1500", "1500", nil},
		{"a sign is kept", vi, "-2,5", "-2.5", nil},
		{"one dot group in Vietnamese could be thousands or decimals", vi, "1.500", "", locale.ErrAmbiguous},
		{"ten thousand with a dot is ambiguous in Vietnamese too", vi, "10.000", "", locale.ErrAmbiguous},
		{"a dot before more than three digits was always a decimal", vi, "1.5000", "1.5000", nil},
		{"a dot after a leading zero was always a decimal", vi, "0.500", "0.500", nil},
		{"an exponent still reads as before", vi, "1e9", "1e9", nil},
		{"English decimals after a comma are no English number", en, "1,5", "", locale.ErrNotNumber},
		{"English marks in Vietnamese are no Vietnamese number", vi, "1,234.56", "", locale.ErrNotNumber},
		{"two decimal marks are no number", vi, "1,2,3", "", locale.ErrNotNumber},
		{"a group of two digits is no number", vi, "1.23.456", "", locale.ErrNotNumber},
		{"mixed group marks are no number", vi, "1.234 567", "", locale.ErrNotNumber},
		{"a word is no number", vi, "abc", "", locale.ErrNotNumber},
		{"nothing is no number", en, "", "", locale.ErrNotNumber},
		{"a language the bot does not speak reads as English", locale.Lang("fr"), "1,000", "1000", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := locale.ParseDecimal(tt.lang, tt.in)
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("ParseDecimal(%s, %q) = %q, %v; want %q, %v", tt.lang, tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

// A refused number says how to write each of its readings so that it
// reads as one: digits alone, or the language's decimal mark.
func TestAnAmbiguousNumberSaysHowToWriteEachReading(t *testing.T) {
	_, err := locale.ParseDecimal(locale.Vietnamese, "1.500")
	var a *locale.AmbiguousError
	if !errors.As(err, &a) {
		t.Fatalf("err = %v, want an *AmbiguousError", err)
	}
	if a.Input != "1.500" || a.Whole != "1500" || a.Decimal != "1,5" {
		t.Errorf("got %+v, want 1.500 as 1500 or 1,5", *a)
	}
}
