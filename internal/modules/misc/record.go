package misc

import (
	"strconv"
	"time"
)

const lastPingKey = "last_ping"

// lastPing is /ping's record, as JSON (what /mstats decodes).
type lastPing struct {
	At     time.Time `json:"at"`
	ChatID int64     `json:"chat_id"`
	UserID int64     `json:"user_id"`
}

// encode writes the record as json.Marshal does, without its reflection:
// /ping is the command every health check sends (docs/performance.md has
// what the reflection cost). At is UTC, in the years json.Marshal accepts.
func (p lastPing) encode() []byte {
	b := make([]byte, 0, 80)
	b = append(b, `{"at":"`...)
	b = p.At.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","chat_id":`...)
	b = strconv.AppendInt(b, p.ChatID, 10)
	b = append(b, `,"user_id":`...)
	b = strconv.AppendInt(b, p.UserID, 10)
	return append(b, '}')
}
