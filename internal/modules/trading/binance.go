package trading

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
)

// BinanceURL is the one setting for Binance's public market data, which
// coin (every coin against USDT) and gold (PAXG, a token backed by a troy
// ounce of gold) both read.
var BinanceURL = app.Setting{
	Name: "BINANCE_API_URL", Default: "https://data-api.binance.vision",
	Help: "coin and gold: Binance market data API (keyless)",
}

// BinancePrice is the last price of pair ("BTCUSDT") from GET
// /api/v3/ticker/price. An answer for another pair than the one asked (a
// proxy's or cache's mix-up) is a failure of the source, not a price.
func BinancePrice(ctx context.Context, c *http.Client, base, pair string) (decimal.Decimal, error) {
	var r struct {
		Symbol string `json:"symbol"`
		Price  string `json:"price"`
	}
	if err := Do(ctx, c, Call{URL: base + "/api/v3/ticker/price?symbol=" + url.QueryEscape(pair)}, &r); err != nil {
		return decimal.Zero, err
	}
	if r.Symbol != pair {
		return decimal.Zero, fmt.Errorf("binance: asked for %s, answered for %q", pair, r.Symbol)
	}
	return Positive(r.Price)
}
