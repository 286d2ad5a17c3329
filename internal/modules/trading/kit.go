package trading

import (
	"cmp"
	"io/fs"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// Kit is one market, declared: its sources and their fallbacks, its units
// and rounding, how it reads symbols, and its commands' words. Package
// market makes the whole module from it (commands, questions, buttons,
// jobs, the Mini App's routes, inline cards), so every market has the
// same commands with the same rules, and a market is a value, not wiring.
type Kit struct {
	Name string // the module, its commands' prefix and its jobs: "coin"
	// Texts are the market's own locale files (its commands' descriptions
	// "cmd.<name>", every key its Kit names, and the /help lines of its
	// inline price cards and own-portfolio summary, "inline.card" and
	// "inline.summary"), the shared words appended (Texts).
	Texts    fs.FS
	Settings []app.Setting // every one a source's base URL, checked by CheckURL
	// Sources are the price sources in fallback order; Histories the
	// charts' price histories, likewise.
	Sources   func(s Sites) []Source
	Histories func(s Sites) []HistorySource
	Range     PriceRange // every price a source answers lies in it
	// SourceNames are the keys naming the sources whose names are words
	// ("world spot"), by name; the rest are named as they are (Binance).
	SourceNames map[string]string
	Fresh       time.Duration // how long a price is reused from the store
	NoPrice     string        // the key of the reply when every source failed ("": the shared one)

	Market   Market
	Currency string       // the cash's name: "USD"
	Start    string       // a first top-up to suggest: "1000"
	Unit     string       // the key of a quantity's name in replies ("unit": luong; "": the symbol)
	Chart    chart.Format // money on charts
	// PricePlaces are a price's decimals (nil: the cash's): a small coin's
	// price needs many.
	PricePlaces func(decimal.Decimal) int32

	// Symbol reads a typed symbol; nil: the market has one symbol, Only,
	// and its commands take none.
	Symbol func(string) (string, bool)
	Only   string
	// Inline reads an inline query as a symbol (nil: Symbol).
	Inline func(string) (string, bool)
	// SymbolArg is the key naming the symbol in usage lines ("symbol",
	// "ticker") and Example is one ("BTC").
	SymbolArg, Example string

	// Buy and Sell read an order's amount. A Buy in Cash spends that much.
	Buy, Sell OrderAmount

	// AlertExample is an alert command's arguments ("BTC above 120000");
	// AlertSymbol is the key naming the symbol in its usage line, and
	// AlertLabel the key naming what an alert watches ("": the symbol).
	AlertExample, AlertSymbol, AlertLabel string

	// ChartOnly is the one symbol the charts draw ("": any symbol), named
	// by the key ChartLabel ("": the symbol); ChartHint is the key of a
	// card's chart command ("": "/<name>_chart <SYM>"). Periods are the
	// charts' periods, in button order, Period the one without an argument.
	ChartOnly, ChartLabel, ChartHint string
	Periods                          []Period
	Period                           Period

	// More are a market's own commands, after the kit's (each one's
	// description is its catalog's "cmd.<name>", as the kit's are).
	More func(d *Desk) []app.Command
}

// Sites builds a market's sources: the deps (a source may keep state in
// the store) and the settings' checked base URLs.
type Sites struct {
	app.Deps
	URLs map[string]string // by setting
}

// URL is a setting's checked base URL.
func (s Sites) URL(setting string) string { return s.URLs[setting] }

// Read reads a symbol in a button or a question as the commands do.
func (k *Kit) Read(s string) (string, bool) {
	if k.Symbol == nil {
		return s, s == k.Only
	}
	return k.Symbol(s)
}

// OrderAmount is how a command reads its amount and asks for it.
type OrderAmount struct {
	Cash    bool            // an amount of cash (the market's cash places); else a quantity
	Max     decimal.Decimal // zero: no bound
	Arg     string          // the key of its name in the usage line: "usd"
	Example string          // in the usage line: "100"
	Hint    string          // the key of what is said after a refusal: "(whole shares)"
	Ask     string          // the key of the question when it is asked: "How much USD? e.g. 100"
}

// Cash is an amount of the market's cash as lang reads money: en $1,234.56
// or 1,234,567 VND, vi 1.234,56 $ or 1.234.567 ₫.
func (k *Kit) Cash(lang app.Lang, d decimal.Decimal) string {
	return locale.Money(lang, k.Currency, d.StringFixed(k.Market.CashPlaces))
}

// Price is a price as lang reads money, at the market's PricePlaces.
func (k *Kit) Price(lang app.Lang, p decimal.Decimal) string {
	places := k.Market.CashPlaces
	if k.PricePlaces != nil {
		places = k.PricePlaces(p)
	}
	return locale.Money(lang, k.Currency, p.StringFixed(places))
}

// PriceText is a price reply in w's language: the market's key "price"
// with the price (a two-sided quote's Buy and Sell too), its source and
// the note of how the source made it.
func (k *Kit) PriceText(w app.Words, sym string, q Quote) string {
	text := w.T("price", app.Args{"Sym": sym, "Price": k.Price(w.Lang, q.Price), "Buy": k.Price(w.Lang, q.SellPrice()),
		"Sell": k.Price(w.Lang, q.Price), "Source": k.SourceName(w, q.Source)})
	switch {
	case q.Note != "" && q.NoteArgs != nil:
		args := app.Args{}
		for k, v := range q.NoteArgs {
			args[k] = Figure(w.Lang, v)
		}
		text += "\n" + w.T(q.Note, args)
	case q.Note != "": // kept before notes had figures: its text
		text += "\n" + q.Note
	}
	return text
}

// KeyOr is key's text in w's language, or, when the Kit names no key
// (""), or: a Kit's optional words (Unit, ChartLabel, AlertLabel...).
func KeyOr(w app.Words, key, or string) string {
	if key == "" {
		return or
	}
	return w.T(key)
}

// SourceName is how a reply in w's language names a price source: its
// key in SourceNames, else its name.
func (k *Kit) SourceName(w app.Words, name string) string {
	if key, ok := k.SourceNames[name]; ok {
		return w.T(key)
	}
	return name
}

// ChartMoney is the charts' money format for a reader of lang: the Kit's
// Chart, of the market's Currency.
func (k *Kit) ChartMoney(lang app.Lang) chart.Format {
	f := k.Chart
	f.Currency, f.Lang = cmp.Or(f.Currency, k.Currency), lang
	return f
}
