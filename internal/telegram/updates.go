package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// MethodGetUpdates is the Bot API method the poller calls, as its metrics
// name it.
const MethodGetUpdates = "getUpdates"

// AllowedUpdates are the update kinds the bot handles.
var AllowedUpdates = []string{models.AllowedUpdateMessage, models.AllowedUpdateCallbackQuery, models.AllowedUpdateMyChatMember, models.AllowedUpdateInlineQuery}

// apiResponse is the Bot API's envelope.
type apiResponse struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// UpdatesError is a getUpdates failure with what the poller needs to back off.
type UpdatesError struct {
	Code        int // HTTP-style error code from Telegram; 0 for network errors
	Description string
	RetryAfter  time.Duration
	err         error
}

func (e *UpdatesError) Error() string {
	if e.err != nil {
		return "telegram: getUpdates: " + e.err.Error()
	}
	return fmt.Sprintf("telegram: getUpdates: %d %s", e.Code, e.Description)
}

func (e *UpdatesError) Unwrap() error { return e.err }

// Is makes a 409 match ErrConflict and a 401 ErrUnauthorized.
func (e *UpdatesError) Is(target error) bool {
	return (target == ErrConflict && e.Code == http.StatusConflict) ||
		(target == ErrUnauthorized && e.Code == http.StatusUnauthorized)
}

// GetUpdates long-polls for updates from offset. The poller calls it
// directly (go-telegram/bot's own loop acknowledges updates before they are
// handled, which loses them when handling fails).
func (c *Client) GetUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]*models.Update, error) {
	updates, err := c.getUpdates(ctx, offset, timeout)
	var ue *UpdatesError
	switch {
	case err == nil:
		c.metrics.BotAPI(MethodGetUpdates, metrics.OK, 0)
	case errors.As(err, &ue) && ue.RetryAfter > 0:
		c.metrics.BotAPI(MethodGetUpdates, metrics.Flood, ue.RetryAfter)
	case ctx.Err() == nil: // not the poller stopping
		c.metrics.BotAPI(MethodGetUpdates, metrics.Error, 0)
	}
	return updates, err
}

func (c *Client) getUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]*models.Update, error) {
	body, _ := json.Marshal(map[string]any{
		"offset":          offset,
		"timeout":         int(timeout / time.Second),
		"allowed_updates": AllowedUpdates,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.apiURL+"/bot"+c.token+"/getUpdates", bytes.NewReader(body))
	if err != nil {
		return nil, c.scrub(&UpdatesError{err: err})
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.scrub(&UpdatesError{err: err}) // the URL holds the token
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, c.scrub(&UpdatesError{err: err})
	}
	var r apiResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &UpdatesError{Code: resp.StatusCode, Description: "undecodable response", err: err}
	}
	if !r.OK {
		return nil, &UpdatesError{Code: r.ErrorCode, Description: r.Description, RetryAfter: time.Duration(r.Parameters.RetryAfter) * time.Second}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(r.Result, &raws); err != nil {
		return nil, &UpdatesError{Code: resp.StatusCode, Description: "undecodable updates", err: err}
	}
	updates := make([]*models.Update, 0, len(raws))
	for _, raw := range raws {
		if u := c.decodeUpdate(raw); u != nil {
			updates = append(updates, u)
		}
	}
	return updates, nil
}

// decodeUpdate decodes one update of a batch. A part the decoder rejects
// (a kind or a value newer than the client library) is left out and logged
// by name, without content; the rest is handled. Only an update without a
// readable update_id is skipped: the offset cannot name it anyway.
func (c *Client) decodeUpdate(raw json.RawMessage) *models.Update {
	u, ignored, err := DecodeUpdate(raw)
	if err != nil {
		c.log.Error("update skipped: not even its update_id can be read", "reason", err.Error())
		return nil
	}
	// The poller fetches an update again until the offset passes it: log
	// each one once (ids only grow).
	if len(ignored) > 0 && c.lastUndecodable.Load() < u.ID {
		c.lastUndecodable.Store(u.ID)
		c.log.Warn("update decoded in part", "update_id", u.ID, "ignored", ignored)
	}
	return u
}
