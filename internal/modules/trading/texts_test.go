package trading

import (
	"context"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// sharedCatalog is the shared words alone, as the market "coin".
var sharedCatalog = sync.OnceValue(func() *locale.Catalog {
	return locale.NewCatalog(locale.Source{Namespace: "coin", FS: Texts(nil)})
})

func sharedWords(lang app.Lang) app.Words { return app.NewWords(sharedCatalog(), "coin", lang) }

// english are the shared words in English.
var english = sharedWords(app.English)

// chatTexts are a desk's Texts over the shared words, every chat English.
type chatTexts struct{}

var _ app.Texts = chatTexts{}

func (chatTexts) In(lang app.Lang) app.Words { return sharedWords(lang) }

func (chatTexts) Chat(context.Context, int64) (app.Words, error) { return english, nil }

func (chatTexts) Choose(context.Context, int64, app.Lang) error { return nil }

func (chatTexts) ChooseZone(context.Context, int64, string) error { return nil }

// The toast's English constant is the catalog's English; a Vietnamese
// presser reads Vietnamese.
func TestTheNotYoursToastReadsInThePressersLanguage(t *testing.T) {
	if got := sharedWords(app.English).T(notYours); got != NotYoursToast {
		t.Errorf("English = %q, want %q", got, NotYoursToast)
	}
	if got := sharedWords(app.Vietnamese).T(notYours); got == NotYoursToast || got == notYours {
		t.Errorf("Vietnamese = %q", got)
	}
}

// A refusal's figures read as each language writes numbers: English as
// the bot always wrote them, Vietnamese with its own marks.
func TestARefusalsFiguresReadInTheReadersLanguage(t *testing.T) {
	m := Market{CashPlaces: 2}
	p := &Portfolio{}
	err := p.BuyQty(m, "BTC", d("1"), d("1234.5"), t0)
	for lang, want := range map[app.Lang]string{
		app.English:    "not enough cash: 1234.50 needed, 0.00 available",
		app.Vietnamese: "không đủ tiền mặt: cần 1.234,50, hiện có 0,00",
	} {
		if got := Why(sharedWords(lang), err); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := err.Error(); got != "not enough cash: 1234.50 needed, 0.00 available" {
		t.Errorf("the error reads %q", got)
	}
}
