package trading_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// desk is a market module of a desk with no price source: a price press
// that parses gets "no price", telling it from a refused one.
var desk = app.Factory{Name: "stock", New: func(d app.Deps) (*app.Module, error) {
	ticker := func(s string) (string, bool) { return s, trading.UpperAlnum(s, 3, 10) }
	k := &trading.Kit{Name: "stock", Symbol: ticker}
	dk := &trading.Desk{Kit: k, Quotes: &trading.Quotes{Store: d.Store, Log: d.Log, Now: d.Now}}
	return &app.Module{Name: "stock", Texts: trading.Texts(nil), Callbacks: []app.Callback{dk.Callback()}}, nil
}}

// Buttons already on users' messages carry the format the desk wrote
// before app.CallbackData ("<name>:p:<SYM>", "<name>:s:<user id>"): they
// keep working, and anything else a client sends gets the stale toast,
// never an error.
func TestOldButtonsKeepWorkingAndForgedOnesGetTheStaleToast(t *testing.T) {
	const chat, user = apptest.Group, 11
	tests := []struct {
		data, toast string
		edits       int
	}{
		{"stock:p:VNM", "No price for VNM right now. Try again later.", 0},
		{"stock:s:12", trading.NotYoursToast, 0},
		// The presser's own portfolio: the reply is edited (this test's
		// message does not exist, so the edit fails and the core answers
		// the press with its apology).
		{"stock:s:11", "Sorry, that did not work. Please try again.", 1},
		{"stock:p", app.StaleButtonToast, 0},
		{"stock:p:", app.StaleButtonToast, 0},
		{"stock:p:../../x", app.StaleButtonToast, 0},
		{"stock:s:+11", app.StaleButtonToast, 0},
		{"stock:s:011", app.StaleButtonToast, 0},
		{"stock:s:11:0", app.StaleButtonToast, 0},
		{"stock:s:\xff", app.StaleButtonToast, 0},
		{"stock:x:1", app.StaleButtonToast, 0},
		{"stock:", app.StaleButtonToast, 0},
		{"stock:p:" + strings.Repeat("A", app.MaxCallbackData), app.StaleButtonToast, 0},
	}
	for _, tt := range tests {
		b := apptest.New(t, []app.Factory{desk})
		if toast, edits, err := b.PressData(chat, user, 1, tt.data); err != nil || toast != tt.toast || edits != tt.edits {
			t.Errorf("%q: toast %q, %d edits, %v; want %q, %d edits", tt.data, toast, edits, err, tt.toast, tt.edits)
		}
	}
}
