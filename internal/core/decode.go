package core

import (
	"encoding/json"
	"fmt"

	"github.com/go-telegram/bot/models"
)

// DecodeUpdate decodes one update from Telegram (a webhook body, one item
// of a getUpdates batch). When the update cannot be decoded as a whole (a
// kind or a field value newer than the client library) but its update_id
// can, it returns the bare update, only the id, with the error: the runtime
// acknowledges it, since no retry can make it decodable, and HandleUpdate
// does nothing with it. When not even the id can be read it returns nil.
func DecodeUpdate(raw []byte) (*models.Update, error) {
	var u models.Update
	err := json.Unmarshal(raw, &u)
	if err == nil {
		return &u, nil
	}
	var id struct {
		ID *int64 `json:"update_id"`
	}
	if json.Unmarshal(raw, &id) != nil || id.ID == nil {
		return nil, fmt.Errorf("not a Telegram update: %w", err)
	}
	return &models.Update{ID: *id.ID}, fmt.Errorf("update %d cannot be decoded: %w", *id.ID, err)
}
