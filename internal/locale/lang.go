// Package locale is what the bot says in which language: the languages it
// speaks (Lang), the catalog of every module's texts in them (Catalog, on
// golang.org/x/text/message with CLDR plurals) and how numbers, money and time read in each
// (Number, Money, DateTime, on golang.org/x/text's CLDR data). It imports
// nothing of the bot, so the module API, the engine, the charts and the
// Mini App share one rule per language.
package locale

import "strings"

// Lang is a language the bot speaks, as a BCP 47 base ("en", "vi").
type Lang string

// The languages the bot speaks. English is the fallback of every text.
const (
	English    Lang = "en"
	Vietnamese Lang = "vi"
)

// Langs are the languages the bot speaks, the fallback first.
var Langs = []Lang{English, Vietnamese}

// Parse reads a language the bot speaks: "vi", "VI", "vi-VN" are
// Vietnamese. ok is false for any other.
func Parse(s string) (l Lang, ok bool) {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "-")
	base, _, _ = strings.Cut(base, "_")
	for _, l := range Langs {
		if string(l) == base {
			return l, true
		}
	}
	return "", false
}

// FromTelegram is the language for Telegram's language_code ("vi", "en-US",
// "" when the user's client gives none): the bot's own if it speaks it,
// else English.
func FromTelegram(code string) Lang {
	if l, ok := Parse(code); ok {
		return l
	}
	return English
}

// Valid reports whether l is a language the bot speaks.
func (l Lang) Valid() bool {
	_, ok := Parse(string(l))
	return ok && l != ""
}

// Or is l, or fallback when l is not a language the bot speaks.
func (l Lang) Or(fallback Lang) Lang {
	if p, ok := Parse(string(l)); ok {
		return p
	}
	return fallback
}
