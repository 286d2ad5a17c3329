package misc

import (
	"time"
)

const lastPingKey = "last_ping"

// lastPing is /ping's record, as JSON (what /mstats decodes).
type lastPing struct {
	At     time.Time `json:"at"`
	ChatID int64     `json:"chat_id"`
	UserID int64     `json:"user_id"`
}
