package trading

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Source is one price provider of a market. It sets Price when it answers
// one price for buying and selling, or Quote when a buyer and a seller get
// different prices (a gold shop's buy and sell).
type Source struct {
	Name string
	// StandIn marks a source that answers another market's price in this
	// one's stead (world spot for SJC gold): quoted, labelled by its Name,
	// but no alert fires on it (Quote.Own).
	StandIn bool
	Price   func(ctx context.Context, sym string, now time.Time) (decimal.Decimal, error)
	Quote   func(ctx context.Context, sym string, now time.Time) (Quote, error)
}

// quote asks the source, whichever way it answers.
func (s Source) quote(ctx context.Context, sym string, now time.Time) (Quote, error) {
	if s.Quote != nil {
		return s.Quote(ctx, sym, now)
	}
	p, err := s.Price(ctx, sym, now)
	return Quote{Price: p}, err
}

// Quote is a price as cached in the module's store.
type Quote struct {
	// Price is what a buyer pays (the ask).
	Price decimal.Decimal `json:"price"`
	// Bid is what a seller gets, when it differs from Price (zero: Price).
	Bid    decimal.Decimal `json:"bid,omitzero"`
	Source string          `json:"source"`
	// Note says how the source made the price (a conversion), if it did:
	// the key of the market's words, its figures NoteArgs (plain
	// decimals, see Figure). A note kept without figures is its text.
	Note     string            `json:"note,omitzero"`
	NoteArgs map[string]string `json:"note_args,omitzero"`
	At       time.Time         `json:"at"`
	// StandIn: the price is another market's, its source a Source.StandIn.
	StandIn bool `json:"stand_in,omitzero"`
}

// Own reports whether the price is its market's own, from one of the
// market's sources rather than a stand-in for it: only such a price may
// fire an alert.
func (q Quote) Own() bool { return !q.StandIn }

// SellPrice is what a seller gets.
func (q Quote) SellPrice() decimal.Decimal {
	if q.Bid.IsZero() {
		return q.Price
	}
	return q.Bid
}

// Why a Quotes chain has no price.
var (
	ErrUnknownSymbol = errors.New("every source says the symbol is unknown")
	ErrNoPrice       = errors.New("no price source answered")
	// ErrStore marks a source's failure that was the bot's own store's (a
	// cached credential unreadable), not the provider's: when no source
	// answers, the caller gets the error to retry, and a user is never
	// told the sources failed when they were not asked.
	ErrStore = errors.New("the store failed")
)

// Quotes asks its sources in order, falling through on any failure, and
// caches the first answer under "price:<SYM>" for Fresh, so a burst of
// commands costs the providers one call (asks at once in a process share
// one: flights); a symbol every source calls unknown is remembered for
// UnknownFor (zero: not remembered).
type Quotes struct {
	Store      storage.KVStore
	Log        *slog.Logger
	Now        func() time.Time
	Fresh      time.Duration
	UnknownFor time.Duration
	Sources    []Source
	// Range bounds every price a source answers (NewQuotes requires one;
	// zero bounds nothing).
	Range PriceRange
	// NoPrice is the key of the reply when every source failed (""
	// says the shared one); default "No price for
	// <SYM> right now; ...".
	NoPrice string
	flights flights
}

// Price returns a fresh cached quote, or asks the sources in order.
func (qs *Quotes) Price(ctx context.Context, sym string) (Quote, error) {
	return qs.price(ctx, sym, false)
}

// OwnPrice is Price from the market's own sources only, never a stand-in:
// a cached stand-in's price is asked again of them, and ErrNoPrice means
// none of them answered (a stand-in may have).
func (qs *Quotes) OwnPrice(ctx context.Context, sym string) (Quote, error) {
	return qs.price(ctx, sym, true)
}

func (qs *Quotes) price(ctx context.Context, sym string, own bool) (Quote, error) {
	var q Quote
	key := "price:" + sym
	if err := qs.Store.GetJSON(ctx, key, &q); err == nil && qs.bounded(q) != nil {
		q = Quote{} // cached before the range held: asked again
	} else if err == nil && qs.Now().Sub(q.At) < qs.Fresh && (q.Own() || !own) {
		return q, nil
	}
	if qs.knownUnknown(ctx, sym) {
		return q, ErrUnknownSymbol
	}
	stale := q
	return qs.flights.do(ctx, fmt.Sprint(key, own), func() (Quote, error) { return qs.ask(ctx, sym, own, stale) })
}

// ask asks the sources in order for sym (only the market's own when own),
// caching the first answer; stale is what the cache held.
func (qs *Quotes) ask(ctx context.Context, sym string, own bool, stale Quote) (Quote, error) {
	q, key := stale, "price:"+sym
	asked, unknown, storeErr := 0, 0, error(nil)
	for _, s := range qs.Sources {
		if own && s.StandIn {
			continue
		}
		asked++
		got, err := s.quote(ctx, sym, qs.Now())
		if err == nil {
			err = qs.bounded(got)
		}
		if err == nil {
			q = got
			q.Source, q.At, q.StandIn = s.Name, qs.Now(), s.StandIn
			if err := qs.Store.PutJSON(ctx, key, q); err != nil {
				qs.Log.Warn("price not cached", "symbol", sym, "err", err)
			}
			qs.noteOpen(ctx, sym, q)
			return q, nil
		}
		switch {
		case errors.Is(err, ErrUnknown):
			unknown++
		case errors.Is(err, ErrStore):
			storeErr = err
		default:
			qs.Log.Warn("price source failed", "source", s.Name, "symbol", sym, "err", err)
		}
	}
	switch {
	case storeErr != nil:
		return q, fmt.Errorf("price of %s: %w", sym, storeErr)
	case unknown == asked && asked == len(qs.Sources):
		qs.markUnknown(ctx, sym)
		return q, ErrUnknownSymbol
	case unknown == asked && asked > 0:
		return q, ErrUnknownSymbol // to the own sources; a stand-in was not asked
	}
	return q, ErrNoPrice
}

// bounded checks q against the market's range, if it has one.
func (qs *Quotes) bounded(q Quote) error {
	if qs.Range.Min.IsZero() && qs.Range.Max.IsZero() {
		return nil
	}
	return qs.Range.CheckQuote(q)
}

// PriceOrReply prices sym, or answers the user why it cannot (ok false).
func (qs *Quotes) PriceOrReply(ctx context.Context, r *app.Request, sym string) (q Quote, ok bool, err error) {
	q, err = qs.Price(ctx, sym)
	var why string
	switch {
	case errors.Is(err, ErrUnknownSymbol):
		why = r.T("unknown_symbol", app.Args{"Sym": sym})
	case errors.Is(err, ErrNoPrice) && qs.NoPrice != "":
		why = r.T(qs.NoPrice)
	case errors.Is(err, ErrNoPrice):
		why = r.T("trading.no_price", app.Args{"Sym": sym})
	case err != nil:
		return q, false, err
	default:
		return q, true, nil
	}
	_, err = r.Reply(ctx, why)
	return q, false, err
}

// Known is the price function Portfolio.Value wants: what selling now would
// bring; a holding without a price now counts at cost.
func (qs *Quotes) Known(ctx context.Context) func(sym string) (decimal.Decimal, bool) {
	return func(sym string) (decimal.Decimal, bool) {
		q, err := qs.Price(ctx, sym)
		return q.SellPrice(), err == nil
	}
}

// report is the /<market>_stats text of a valuation in w's language,
// each holding named by its unit (its symbol, or the market's).
func (d *Desk) report(w app.Words, v Valuation) string {
	money := func(x decimal.Decimal) string { return d.Cash(w.Lang, x) }
	var b strings.Builder
	for _, l := range v.Lines {
		args := app.Args{"Qty": QtyIn(w.Lang, l.Qty), "Unit": d.UnitOf(w, l.Symbol), "Value": money(l.Value), "Cost": money(l.Cost), "PL": money(l.PL)}
		if l.PriceKnown {
			b.WriteString(w.T("trading.stats_line", args))
		} else {
			b.WriteString(w.T("trading.stats_line_no_price", args))
		}
		b.WriteString("\n")
	}
	b.WriteString(w.T("trading.stats_total", app.Args{"Cash": money(v.Cash), "Total": money(v.Total), "Invested": money(v.Invested), "PL": money(v.PL)}))
	return b.String()
}
