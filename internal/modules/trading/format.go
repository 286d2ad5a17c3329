package trading

import (
	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// Qty formats a quantity without trailing zeros.
func Qty(d decimal.Decimal) string { return d.String() }

// QtyIn is a quantity as lang reads a number, without trailing zeros.
func QtyIn(lang app.Lang, d decimal.Decimal) string { return locale.Number(lang, d.String()) }
