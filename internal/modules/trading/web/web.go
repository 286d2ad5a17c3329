// Package web is a market's answers to the Mini App: the user's
// portfolio, a group's board, and a holding's chart.
package web

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// WebTrades is how many of the latest trades the Mini App shows.
const WebTrades = 50

// Amount is money for the page: the exact decimal, and its text in the
// viewer's language as internal/locale writes the bot's replies' money,
// so the page says what /<market>_stats says.
type Amount struct {
	Value decimal.Decimal `json:"value"`
	Text  string          `json:"text"`
}

// WebPortfolio is a user's portfolio in one market, as the Mini App shows it.
type WebPortfolio struct {
	Market   string        `json:"market"`
	Found    bool          `json:"found"` // false: no portfolio yet (Start says how)
	Start    string        `json:"start,omitempty"`
	Cash     Amount        `json:"cash"`
	Invested Amount        `json:"invested"`
	Total    Amount        `json:"total"`
	PL       Amount        `json:"pl"`
	Holdings []WebHolding  `json:"holdings"`
	Values   []WebDayValue `json:"values"`
	Trades   []WebTrade    `json:"trades"` // newest first
}

// WebHolding is one holding valued at the desk's current price.
type WebHolding struct {
	Symbol     string `json:"symbol"`
	Unit       string `json:"unit"`
	Qty        string `json:"qty"`      // exact, plain: a fact for whoever reads the answer
	QtyText    string `json:"qty_text"` // Qty as the viewer's language writes it (vi 0,5)
	Cost       Amount `json:"cost"`
	Price      Amount `json:"price"`
	Value      Amount `json:"value"`
	PL         Amount `json:"pl"`
	PriceKnown bool   `json:"price_known"`
}

// WebDayValue is one recorded day: cash plus holdings, and the deposits so far.
type WebDayValue struct {
	Day       string  `json:"day"`
	Value     float64 `json:"value"` // for the chart only; the exact figures are in the store
	Deposited float64 `json:"deposited"`
}

// WebTrade is one trade of the history.
type WebTrade struct {
	At      time.Time `json:"at"`
	When    string    `json:"when"` // At in Vietnam time, as the viewer's language writes it
	Kind    string    `json:"kind"`
	Symbol  string    `json:"symbol,omitempty"`
	Qty     string    `json:"qty,omitempty"`
	QtyText string    `json:"qty_text,omitempty"`
	Price   *Amount   `json:"price,omitempty"`
	Cash    Amount    `json:"cash"`
}

// MeRoute is the desk's part of the Mini App's /app/api/me: the user's
// portfolio valued as /<market>_stats values it, its recorded days, and
// its latest trades.
func MeRoute(d *trading.Desk) app.WebRoute {
	return app.WebRoute{Name: app.WebMe, Handler: func(ctx context.Context, r *app.WebRequest) (any, error) {
		return Me(ctx, d, r.UserID, wordsFor(d, r))
	}}
}

// wordsFor are d's words for the viewer of r: their language and clock
// (the Mini App's rule).
func wordsFor(d *trading.Desk, r *app.WebRequest) app.Words {
	w := app.Words{Lang: r.Lang}
	if d.Texts != nil {
		w = d.Texts.In(r.Lang)
	}
	return w.InZone(r.Zone)
}

// Me is user's portfolio at d for the Mini App, its texts, figures and
// times as w's reader reads them.
func Me(ctx context.Context, d *trading.Desk, user int64, w app.Words) (WebPortfolio, error) {
	amount := func(v decimal.Decimal) Amount { return Amount{Value: v, Text: d.Cash(w.Lang, v)} }
	out := WebPortfolio{Market: d.Name, Holdings: []WebHolding{}, Values: []WebDayValue{}, Trades: []WebTrade{}}
	out.Cash = amount(decimal.Zero) // the page's charts write money as this does
	p, found, err := trading.Load(ctx, d.Quotes.Store, user)
	if err != nil {
		return out, err
	}
	if !found {
		out.Start = "/" + d.Name + "_topup " + d.Start
		return out, nil
	}
	// The recorded days and each holding's price are asked at once: on a
	// store a few milliseconds away the answer costs two round trips
	// after the portfolio's, not one per holding and day.
	type quoted struct {
		price decimal.Decimal
		ok    bool
	}
	var (
		wg     sync.WaitGroup
		pts    []trading.DayPoint
		ptsErr error
		syms   = slices.Sorted(maps.Keys(p.Holdings))
		prices = make([]quoted, len(syms))
		known  = d.Quotes.Known(ctx)
	)
	if d.Values != nil {
		wg.Go(func() { pts, ptsErr = trading.Points(ctx, d.Quotes.Store, user) })
	}
	for i, sym := range syms {
		wg.Go(func() { prices[i].price, prices[i].ok = known(sym) })
	}
	wg.Wait()
	if ptsErr != nil {
		return out, ptsErr
	}
	v := p.Value(d.Market, func(sym string) (decimal.Decimal, bool) {
		i, found := slices.BinarySearch(syms, sym)
		return prices[i].price, found && prices[i].ok
	})
	out.Found = true
	out.Cash, out.Invested, out.Total, out.PL = amount(v.Cash), amount(v.Invested), amount(v.Total), amount(v.PL)
	for _, l := range v.Lines {
		out.Holdings = append(out.Holdings, WebHolding{Symbol: l.Symbol, Unit: d.UnitOf(w, l.Symbol), Qty: l.Qty.String(), QtyText: trading.QtyIn(w.Lang, l.Qty),
			Cost: amount(l.Cost), Price: amount(l.Price), Value: amount(l.Value), PL: amount(l.PL), PriceKnown: l.PriceKnown})
	}
	for _, pt := range pts {
		out.Values = append(out.Values, WebDayValue{Day: pt.Day, Value: pt.Cash.Add(pt.Holdings).InexactFloat64(), Deposited: pt.Deposited.InexactFloat64()})
	}
	trades := p.History[max(0, len(p.History)-WebTrades):]
	for _, t := range slices.Backward(trades) {
		wt := WebTrade{At: t.At, When: locale.DateTime(w.Lang, w.Local(t.At)), Kind: t.Kind, Symbol: t.Symbol, Cash: amount(t.Cash)}
		if t.Kind != "topup" {
			price := amount(t.Price)
			wt.Qty, wt.QtyText, wt.Price = t.Qty.String(), trading.QtyIn(w.Lang, t.Qty), &price
		}
		out.Trades = append(out.Trades, wt)
	}
	return out, nil
}

// WebBoard is a group's board for the Mini App: the members who traded
// in the group, best first.
type WebBoard struct {
	Chat int64         `json:"chat"`
	Rows []WebBoardRow `json:"rows"`
}

// WebBoardRow is one member's line of a board.
type WebBoardRow struct {
	Rank  int    `json:"rank"`
	Name  string `json:"name"`
	Value Amount `json:"value"`
	PL    Amount `json:"pl"`
	You   bool   `json:"you,omitempty"` // the row of the user who asks
}

// BoardRoute is the desk's "board" route for the Mini App: the page asks
// it for the group it was opened from (?chat=<id>, the link's start
// parameter), and gets that group's board, as /<market>_top ranks it, only
// when the user is a member of that board (BoardMember).
func BoardRoute(d *trading.Desk) app.WebRoute {
	return app.WebRoute{Name: "board", Handler: func(ctx context.Context, r *app.WebRequest) (any, error) {
		chat, err := strconv.ParseInt(r.Query.Get("chat"), 10, 64)
		if err != nil || chat >= 0 {
			return nil, app.ErrWebNotFound // a group's id is negative
		}
		w := wordsFor(d, r)
		amount := func(v decimal.Decimal) Amount { return Amount{Value: v, Text: d.Cash(w.Lang, v)} }
		if member, err := d.BoardMember(ctx, chat, r.UserID); err != nil {
			return nil, err
		} else if !member {
			return nil, app.ErrWebForbidden
		}
		rows, err := trading.Board(ctx, d.Quotes.Store, d.Market, d.Quotes.Known(ctx), chat, d.Quotes.Now())
		if err != nil {
			return nil, err
		}
		b := WebBoard{Chat: chat, Rows: make([]WebBoardRow, 0, len(rows))}
		for i, row := range rows {
			name := row.Name
			if name == "" {
				name = w.T("trading.board.no_name")
			}
			b.Rows = append(b.Rows, WebBoardRow{Rank: i + 1, Name: name, Value: amount(row.Value), PL: amount(row.Change), You: row.User == r.UserID})
		}
		return b, nil
	}}
}
