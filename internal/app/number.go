package app

import (
	"errors"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// numberAmbiguous is the engine's text for a typed number that reads two
// ways, shared by every module that reads one (locale.ParseDecimal).
const numberAmbiguous = engineNS + ".number_ambiguous"

// Ambiguous is err in w's language when it is a typed number that reads
// two ways (locale.AmbiguousError): a clause naming both readings, each
// written as it reads one way, to put where the module says why it
// refused. ok is false for any other error.
func (w Words) Ambiguous(err error) (text string, ok bool) {
	var a *locale.AmbiguousError
	if !errors.As(err, &a) {
		return "", false
	}
	return w.T(numberAmbiguous, Args{"Input": Quote(a.Input), "Whole": a.Whole, "Decimal": a.Decimal}), true
}
