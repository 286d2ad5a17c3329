package trading

import (
	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// QtyIn is a quantity as lang reads a number, without trailing zeros.
func QtyIn(lang app.Lang, d decimal.Decimal) string { return locale.Number(lang, d.String()) }
