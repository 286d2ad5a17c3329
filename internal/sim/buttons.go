package sim

import (
	"encoding/json"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The daily push's module writes its buttons' callback data as
// "sched:<kind>[:<yyyymmdd>]": what a message of it is, the checkers read
// from its buttons, not from its wording.
const (
	schedPrefix = "sched:"
	schedPush   = "p" // the push's button: the push of the day it names
	schedUnsub  = "u" // unsubscribe: the confirmation of a subscription
)

// carries reports whether c's message has a button of prefix whose first
// field is kind.
func carries(c Call, prefix, kind string) bool {
	var kb models.InlineKeyboardMarkup
	if json.Unmarshal([]byte(c.Markup), &kb) != nil {
		return false
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if d, err := app.ParseCallback(prefix, b.CallbackData, 1, 2); err == nil && d.Fields[0] == kind {
				return true
			}
		}
	}
	return false
}
