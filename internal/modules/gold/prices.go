package gold

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// gramsPerLuong and gramsPerTroyOunce convert world spot to luong.
var (
	gramsPerLuong     = decimal.RequireFromString("37.5")
	gramsPerTroyOunce = decimal.RequireFromString("31.1034768")
)

// apiKey is VNAppMob's bearer token, cached in the store with its expiry.
type apiKey struct {
	Key     string    `json:"key"`
	Expires time.Time `json:"expires"`
}

const keyStoreKey = "vnappmob_key"

// keyLife is the documented lifetime when the key's own expiry is unreadable.
const keyLife = 15 * 24 * time.Hour

// refreshBefore renews the key this long before it expires.
const refreshBefore = 24 * time.Hour

// vnappmob is the SJC source: its base URL, and the store and clock of
// its cached API key.
type vnappmob struct {
	store storage.KVStore
	log   *slog.Logger
	now   func() time.Time
	http  *http.Client
	base  string
}

// bearer returns a usable key, fetching a new one when the cached one is
// missing, expiring soon, or (force) was just refused.
func (m *vnappmob) bearer(ctx context.Context, force bool) (string, error) {
	var k apiKey
	err := m.store.GetJSON(ctx, keyStoreKey, &k)
	if errors.Is(err, storage.ErrUnreadable) {
		err = storage.ErrNotFound // a damaged cached key is fetched again
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return "", fmt.Errorf("vnappmob key: %w: %w", trading.ErrStore, err)
	}
	if err == nil && !force && m.now().Add(refreshBefore).Before(k.Expires) {
		return k.Key, nil
	}
	var r struct {
		Results string `json:"results"`
	}
	if err := trading.Do(ctx, m.http, trading.Call{URL: m.base + "/api/request_api_key?scope=gold"}, &r); err != nil {
		return "", fmt.Errorf("vnappmob key: %w", err)
	}
	if r.Results == "" {
		return "", errors.New("vnappmob key: empty answer")
	}
	k = apiKey{Key: r.Results, Expires: jwtExpiry(r.Results, m.now().Add(keyLife))}
	if err := m.store.PutJSON(ctx, keyStoreKey, k); err != nil {
		m.log.Warn("gold: key not cached", "err", err)
	}
	return k.Key, nil
}

// jwtExpiry reads the exp claim of a JWT without verifying it (the key is
// VNAppMob's to check); fallback when it cannot be read.
func jwtExpiry(token string, fallback time.Time) time.Time {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fallback
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return fallback
	}
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if json.Unmarshal(payload, &claims) != nil || claims.Exp == 0 {
		return fallback
	}
	return time.Unix(claims.Exp, 0)
}

// sjc asks VNAppMob for the latest SJC bar price, in VND per luong: the
// shop sells at sell_1l (a buyer's Price) and buys back at buy_1l (Bid).
func (m *vnappmob) sjc(ctx context.Context, _ string, _ time.Time) (trading.Quote, error) {
	for attempt := 0; attempt < 2; attempt++ {
		key, err := m.bearer(ctx, attempt > 0)
		if err != nil {
			return trading.Quote{}, err
		}
		var r struct {
			Results []struct {
				Buy  json.Number `json:"buy_1l"`
				Sell json.Number `json:"sell_1l"`
			} `json:"results"`
		}
		err = trading.Do(ctx, m.http, trading.Call{URL: m.base + "/api/v2/gold/sjc", Bearer: key}, &r)
		if errors.Is(err, trading.ErrRefused) {
			continue // the cached key was revoked or expired early: fetch a new one once
		}
		if err != nil {
			return trading.Quote{}, err
		}
		if len(r.Results) == 0 {
			return trading.Quote{}, errors.New("vnappmob: no SJC price")
		}
		buy, err1 := trading.Positive(r.Results[0].Buy.String())
		sell, err2 := trading.Positive(r.Results[0].Sell.String())
		if err := errors.Join(err1, err2); err != nil {
			return trading.Quote{}, err
		}
		return trading.Quote{Price: sell, Bid: buy}, nil
	}
	return trading.Quote{}, trading.ErrRefused
}

// spotPair is the world spot source: PAXG (Paxos Gold, one fine troy ounce
// of London Good Delivery gold per token) against USDT, which tracks the
// dollar. ExchangeRate-API's open rates have no XAU at all.
const spotPair = "PAXGUSDT"

// spot converts world spot gold to VND per luong: the ounce's price in USD
// from Binance times the day's USD/VND rate from ExchangeRate-API, one price
// both ways.
func spot(c *http.Client, binance, erAPI string) func(context.Context, string, time.Time) (trading.Quote, error) {
	return func(ctx context.Context, _ string, _ time.Time) (trading.Quote, error) {
		usdPerOunce, err := trading.BinancePrice(ctx, c, binance, spotPair)
		if err != nil {
			return trading.Quote{}, fmt.Errorf("world spot: %w", err)
		}
		vnd, err := usdVND(ctx, c, erAPI)
		if err != nil {
			return trading.Quote{}, fmt.Errorf("world spot: %w", err)
		}
		perLuong := usdPerOunce.Mul(vnd).Mul(gramsPerLuong).Div(gramsPerTroyOunce).Round(0)
		return trading.Quote{Price: perLuong, Note: "spot_price_note", NoteArgs: map[string]string{"USD": usdPerOunce.StringFixed(2), "Rate": vnd.StringFixed(0)}}, nil
	}
}

// usdVND is the day's USD/VND rate from ExchangeRate-API's open rates.
func usdVND(ctx context.Context, c *http.Client, erAPI string) (decimal.Decimal, error) {
	var r struct {
		Result string                 `json:"result"`
		Rates  map[string]json.Number `json:"rates"`
	}
	if err := trading.Do(ctx, c, trading.Call{URL: erAPI + "/v6/latest/USD"}, &r); err != nil {
		return decimal.Zero, fmt.Errorf("exchange rates: %w", err)
	}
	vnd, err := trading.Positive(r.Rates["VND"].String())
	if r.Result != "success" || err != nil {
		return decimal.Zero, fmt.Errorf("exchange rates: unusable answer (result %q)", r.Result)
	}
	return vnd, nil
}

// priceRange is what a luong of gold can sanely cost in VND, from SJC or
// world spot: far under and far over any price it has had. A source
// answering outside it has failed.
var priceRange = trading.PriceRange{Min: decimal.New(1, 6), Max: decimal.New(1, 10)}
