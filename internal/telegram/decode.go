package telegram

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/go-telegram/bot/models"
)

var errNoUpdateID = errors.New("no update_id")

// DecodeUpdate decodes one update from Telegram (a webhook body, one item
// of a getUpdates batch). A part the client library cannot decode (a kind
// or a value newer than it, such as a new forward_origin type) is left out
// instead of losing the update with it: a forwarded /command, a press or a
// member change still reaches the core. ignored names what was left out by
// its JSON path (names only, never content; the first 16) for the caller
// to log. Only a body whose update_id cannot be read is an error: it is no
// update at all.
func DecodeUpdate(raw []byte) (u *models.Update, ignored []string, err error) {
	u = &models.Update{}
	whole := json.Unmarshal(raw, u)
	if whole == nil && u.ID != 0 {
		return u, nil, nil
	}
	var id struct {
		ID *int64 `json:"update_id"`
	}
	if json.Unmarshal(raw, &id) != nil || id.ID == nil {
		if whole == nil {
			whole = errNoUpdateID
		}
		return nil, nil, fmt.Errorf("not a Telegram update: %w", whole)
	}
	if whole == nil {
		return u, nil, nil // update_id 0
	}
	*u = models.Update{}
	var d lenient
	d.parts(raw, reflect.ValueOf(u).Elem(), "", 0)
	u.ID = *id.ID
	return u, d.result(), nil
}
