package coin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// errUnknown: the source does not know the symbol (as opposed to failing).
var errUnknown = errors.New("unknown symbol")

// source is one price provider.
type source struct {
	name  string
	price func(ctx context.Context, sym string) (decimal.Decimal, error)
}

type fetcher struct {
	http *http.Client
}

// getJSON fetches url into dst; anything but a 2xx JSON body is an error,
// and a 400/404 means the source does not know what was asked.
func (f fetcher) getJSON(ctx context.Context, u string, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	switch {
	case resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusNotFound:
		return errUnknown
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber() // prices stay exact: never through float64
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("not a JSON answer: %w", err)
	}
	return nil
}

// positive parses a price and refuses nonsense (garbage is a failure, not a price).
func positive(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || !d.IsPositive() {
		return decimal.Zero, fmt.Errorf("unusable price %q", s)
	}
	return d, nil
}

func binance(f fetcher, base string) source {
	return source{name: "Binance", price: func(ctx context.Context, sym string) (decimal.Decimal, error) {
		var r struct {
			Symbol string `json:"symbol"`
			Price  string `json:"price"`
		}
		if err := f.getJSON(ctx, base+"/api/v3/ticker/price?symbol="+url.QueryEscape(sym+"USDT"), &r); err != nil {
			return decimal.Zero, err
		}
		return positive(r.Price)
	}}
}

func coinbase(f fetcher, base string) source {
	return source{name: "Coinbase", price: func(ctx context.Context, sym string) (decimal.Decimal, error) {
		var r struct {
			Data struct {
				Currency string            `json:"currency"`
				Rates    map[string]string `json:"rates"`
			} `json:"data"`
		}
		if err := f.getJSON(ctx, base+"/v2/exchange-rates?currency="+url.QueryEscape(sym), &r); err != nil {
			return decimal.Zero, err
		}
		if !strings.EqualFold(r.Data.Currency, sym) {
			return decimal.Zero, errUnknown
		}
		return positive(r.Data.Rates["USD"])
	}}
}

func coingecko(f fetcher, base string) source {
	return source{name: "CoinGecko", price: func(ctx context.Context, sym string) (decimal.Decimal, error) {
		var found struct {
			Coins []struct {
				ID            string       `json:"id"`
				Symbol        string       `json:"symbol"`
				MarketCapRank *json.Number `json:"market_cap_rank"`
			} `json:"coins"`
		}
		if err := f.getJSON(ctx, base+"/api/v3/search?query="+url.QueryEscape(strings.ToLower(sym)), &found); err != nil {
			return decimal.Zero, err
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
			return decimal.Zero, errUnknown
		}
		var prices map[string]map[string]json.Number
		if err := f.getJSON(ctx, base+"/api/v3/simple/price?ids="+url.QueryEscape(id)+"&vs_currencies=usd", &prices); err != nil {
			return decimal.Zero, err
		}
		return positive(prices[id]["usd"].String())
	}}
}
