package sim

import (
	"strings"

	"github.com/miti99bot/miti99bot/internal/locale"
)

// A checker reads a fact where one is at hand: the store's records, a
// button's callback data, a message id, the user's own words in a text
// (a reminder's token). Where the only witness is what the bot said (a
// Cancel's toast, a conversation's question), it reads a saying: the
// text of a catalog key, recognised in every language the bot speaks.
// Until its module moves the text to its catalog, a saying is its
// English literal's start; a text moved under another key than the one
// named here fails TestASayingIsItsKeyOnceItsTextIsInTheCatalog.

// saying is a text a checker recognises: key in the catalog, english the
// start of the literal the module says while it has no catalog.
type saying struct{ key, english string }

// The sayings the checkers read, one place for them all.
var (
	sayCancelled = saying{"core.cancelled", "Cancelled."} // the engine's /cancel ending a conversation

	sayAskWhat         = saying{"remind.ask_what", "What should I remind you of?"}
	sayAskWhen         = saying{"remind.ask_when", "When?"}
	sayWillRemind      = saying{"remind.set", "⏰ I will remind you"}
	sayRemindCancelled = saying{"remind.cancelled", "Reminder cancelled"}
	sayRemindTooLate   = saying{"remind.too_late", "Too late"}
	sayRemindNotYours  = saying{"remind.not_yours", "Only whoever"}
	sayRemindGone      = saying{"remind.gone", "This reminder is no longer pending"}

	sayAlertSet       = saying{"coin.trading.alert.set", "🔔 Alert set"}
	sayAlertCancelled = saying{"coin.trading.alert.cancelled", "Cancelled: "}
	sayAlertTooLate   = saying{"coin.trading.alert.too_late", "Too late: "}

	sayUnsubscribed  = saying{"lolschedule.unsubscribed", "Unsubscribed:"}
	sayNotSubscribed = saying{"lolschedule.not_subscribed", "Not subscribed here."}
)

// sayings are every saying, for the test that keeps them named.
var sayings = []saying{sayCancelled, sayAskWhat, sayAskWhen, sayWillRemind, sayRemindCancelled, sayRemindTooLate,
	sayRemindNotYours, sayRemindGone, sayAlertSet, sayAlertCancelled, sayAlertTooLate, sayUnsubscribed, sayNotSubscribed}

// says reports whether text is s: its key's text in any language once
// its module's catalog has the key, else its English literal's start.
func (l *life) says(s saying, text string) bool {
	if cat := l.app.Catalog(); cat.Has(locale.English, s.key) {
		return cat.Says(s.key, text)
	}
	return strings.HasPrefix(text, s.english)
}
