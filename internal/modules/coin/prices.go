package coin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

func binance(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "Binance", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		return trading.BinancePrice(ctx, c, base, sym+"USDT")
	}}
}

func coinbase(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "Coinbase", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		var r struct {
			Data struct {
				Currency string            `json:"currency"`
				Rates    map[string]string `json:"rates"`
			} `json:"data"`
		}
		if err := trading.Do(ctx, c, trading.Call{URL: base + "/v2/exchange-rates?currency=" + url.QueryEscape(sym)}, &r); err != nil {
			return decimal.Zero, err
		}
		if !strings.EqualFold(r.Data.Currency, sym) {
			return decimal.Zero, trading.ErrUnknown
		}
		return trading.Positive(r.Data.Rates["USD"])
	}}
}

func coingecko(c *http.Client, base string) trading.Source {
	return trading.Source{Name: "CoinGecko", Price: func(ctx context.Context, sym string, _ time.Time) (decimal.Decimal, error) {
		id, err := geckoID(ctx, c, base, sym)
		if err != nil {
			return decimal.Zero, err
		}
		var prices map[string]map[string]json.Number
		if err := trading.Do(ctx, c, trading.Call{URL: base + "/api/v3/simple/price?ids=" + url.QueryEscape(id) + "&vs_currencies=usd"}, &prices); err != nil {
			return decimal.Zero, err
		}
		return trading.Positive(prices[id]["usd"].String())
	}}
}

// geckoID is CoinGecko's id of the coin sym names: the best-ranked of the
// coins with that symbol (unranked ones last).
func geckoID(ctx context.Context, c *http.Client, base, sym string) (string, error) {
	var found struct {
		Coins []struct {
			ID            string       `json:"id"`
			Symbol        string       `json:"symbol"`
			MarketCapRank *json.Number `json:"market_cap_rank"`
		} `json:"coins"`
	}
	if err := trading.Do(ctx, c, trading.Call{URL: base + "/api/v3/search?query=" + url.QueryEscape(strings.ToLower(sym))}, &found); err != nil {
		return "", err
	}
	id, best := "", int64(1<<62)
	for _, c := range found.Coins {
		if !strings.EqualFold(c.Symbol, sym) {
			continue
		}
		rank := int64(1 << 61) // unranked coins come after ranked ones
		if c.MarketCapRank != nil {
			if r, err := c.MarketCapRank.Int64(); err == nil {
				rank = r
			}
		}
		if rank < best {
			id, best = c.ID, rank
		}
	}
	if id == "" {
		return "", trading.ErrUnknown
	}
	return id, nil
}

// priceRange is what a coin's price in USD can sanely be: far over
// Bitcoin's dearest, down to the smallest level an alert takes. A source
// answering outside it has failed.
var priceRange = trading.PriceRange{Min: decimal.New(1, -12), Max: decimal.New(1, 8)}
