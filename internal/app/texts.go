package app

import (
	"context"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Lang is a language the bot speaks (see package locale).
type Lang = locale.Lang

// The languages the bot speaks; English is every text's fallback.
const (
	English    = locale.English
	Vietnamese = locale.Vietnamese
)

// Args are a text's values by name: a catalog text reads them as
// {{.Name}}. Args{"Count": n} also picks the plural form (CLDR: English
// "one" and "other", Vietnamese "other").
type Args map[string]any

// Words are one module's texts in one language. A module ships its texts
// in Module.Texts (locales/en.toml and locales/vi.toml, every key in
// both); the engine namespaces them by the module's name, so a key is the
// module's own. Every request carries the Words of its module in the
// language its chat speaks (req.T); work with no request (a timer, a
// cron push) asks Deps.Texts for a chat's.
type Words struct {
	// Lang is the language the words are in.
	Lang Lang

	cat  *locale.Catalog
	ns   string
	zone *time.Location
}

// Zone is the clock the reader reads: their chat's choice (/timezone),
// else Vietnam's.
func (w Words) Zone() *time.Location {
	if w.zone == nil {
		return locale.Vietnam
	}
	return w.zone
}

// Local is t on the reader's clock: show a time only through it.
func (w Words) Local(t time.Time) time.Time { return t.In(w.Zone()) }

// ZoneName names the reader's clock in their language: "Vietnam time",
// else the zone's name (Europe/Berlin, UTC+09:00).
func (w Words) ZoneName() string {
	if w.Zone() == locale.Vietnam {
		return w.T(VietnamTime)
	}
	return w.Zone().String()
}

// InZone are the same words read on another clock.
func (w Words) InZone(z *time.Location) Words {
	w.zone = z
	return w
}

// NewWords are namespace ns's texts of cat in lang. The engine builds
// them; a module's own tests may too.
func NewWords(cat *locale.Catalog, ns string, lang Lang) Words {
	return Words{Lang: lang.Or(English), cat: cat, ns: ns}
}

// engineNS is the engine's namespace: a key in it is a shared text any
// module may say.
const engineNS = storage.CoreNamespace

// Shared texts of the engine, for any module's T.
const (
	// StaleButton answers a press whose data no longer means anything
	// (see StaleButtonToast).
	StaleButton = "core.stale_button"
	// VietnamTime names Vietnam's clock (Words.ZoneName).
	VietnamTime = "core.vietnam_time"
)

// T renders the module's text key with args (at most one Args is read).
// A key beginning "core." is the engine's shared text (StaleButton). A key
// no catalog has reads as itself: the catalog tests forbid it.
func (w Words) T(key string, args ...Args) string {
	if w.cat == nil {
		return key
	}
	var a Args
	if len(args) > 0 {
		a = args[0]
	}
	full := w.ns + "." + key
	if strings.HasPrefix(key, engineNS+".") {
		full = key
	}
	return w.cat.Text(w.Lang, full, a)
}

// In are the same module's words in another language.
func (w Words) In(lang Lang) Words {
	w.Lang = lang.Or(English)
	return w
}

// Texts are a module's words for work no request carries: a timer, a cron
// push, a message to another chat. Deps.Texts is never nil.
type Texts interface {
	// In are the module's words in lang.
	In(lang Lang) Words
	// Chat are the module's words in the language chat speaks (its
	// choice, else who added the bot; English when none is known). An
	// error is the store's: retry as with any other read.
	Chat(ctx context.Context, chat int64) (Words, error)
	// Choose makes lang the language chat is spoken to in (a private
	// chat's is its user's own choice), from its next update on. Who may
	// choose a group's is the caller's rule (its admins: /language).
	Choose(ctx context.Context, chat int64, lang Lang) error
	// ChooseZone makes zone (a name locale.ParseZone gave) the clock
	// chat's times are shown on, as Choose does for its language.
	ChooseZone(ctx context.Context, chat int64, zone string) error
}
