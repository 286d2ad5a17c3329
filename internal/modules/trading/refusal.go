package trading

import (
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// refusal is a refused change's reason with its figures: its Error is the
// English the logs and the domain's tests read, and Why says it in the
// reader's language from the catalog (key "trading.why.<detail>").
type refusal struct {
	kind   error  // the sentinel: ErrNoCash, ErrTooLarge...
	detail string // the catalog's detail key
	text   string // in English, after the sentinel's words
	args   app.Args
}

func (e *refusal) Error() string { return e.kind.Error() + e.text }
func (e *refusal) Unwrap() error { return e.kind }

// refused is kind with a detail: key names it in the catalog, text is
// its English after the sentinel's (": at most 2"), args its values, a
// number as a figure.
func refused(kind error, key, text string, args app.Args) error {
	return &refusal{kind: kind, detail: key, text: text, args: args}
}

// figure is a refusal's number, a plain decimal.
type figure string

// In is the figure as lang reads it (Figure).
func (f figure) In(lang app.Lang) string { return Figure(lang, string(f)) }

// Figure is a plain decimal in a sentence's figures (a refusal's, a
// price's note) as lang reads it: English plain, as the bot always wrote
// them; Vietnamese with its marks.
func Figure(lang app.Lang, plain string) string {
	if lang == locale.Vietnamese {
		return locale.Number(lang, plain)
	}
	return plain
}

// reasons are the catalog's keys for the refusals' sentinels: the
// errors a user caused, answered and never retried (Apply).
var reasons = map[error]string{
	ErrAmount: "amount", ErrPrecision: "precision", ErrTooLarge: "too_large", ErrNoCash: "no_cash",
	ErrNoHolding: "no_holding", ErrLot: "lot", ErrPriceInvalid: "price_invalid", ErrBusy: "busy",
}

// Why is a refusal said in w's language: the sentinel's words, then its
// figures (plain decimals in English, as the bot always wrote them; the
// language's marks in Vietnamese). An error no refusal knows reads as
// itself.
func Why(w app.Words, err error) string {
	if s, ok := w.Ambiguous(err); ok {
		return s
	}
	var r *refusal
	if errors.As(err, &r) {
		args := app.Args{}
		for k, v := range r.args {
			if f, ok := v.(figure); ok {
				v = f.In(w.Lang)
			}
			args[k] = v
		}
		return w.T("trading.why."+reasons[r.kind]) + w.T("trading.why."+r.detail, args)
	}
	for kind, key := range reasons {
		if errors.Is(err, kind) {
			return w.T("trading.why." + key)
		}
	}
	return err.Error()
}
