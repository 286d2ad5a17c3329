package poller

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// The inbox is the durable half of the backlog: an update the poller
// confirmed to Telegram before handling it lives here, one item per update,
// until it is handled. Its key names its lane and its id (zero-padded), so
// one List gives every lane's backlog in order without reading a body,
// and a restart works it from there.
const inboxPrefix = storage.InboxPrefix

// inbox is the backlog's store: the core namespace, where the dedup records
// and the polling lease live too.
type inbox struct{ store storage.KVStore }

// heldItem is one parked update as listed: where it goes, not what it is.
type heldItem struct {
	lane laneKey
	id   int64
}

func inboxKey(k laneKey, id int64) string {
	if k.solo != 0 {
		return fmt.Sprintf("%ss:%019d", inboxPrefix, id)
	}
	return fmt.Sprintf("%sc%d:%019d", inboxPrefix, k.chat, id)
}

// parseInboxKey reads a key inboxKey wrote; ok is false for anything else.
func parseInboxKey(key string) (heldItem, bool) {
	rest, ok := strings.CutPrefix(key, inboxPrefix)
	if !ok {
		return heldItem{}, false
	}
	laneName, idText, ok := strings.Cut(rest, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil || id <= 0 {
		return heldItem{}, false
	}
	switch {
	case laneName == "s":
		return heldItem{laneKey{solo: id}, id}, true
	case strings.HasPrefix(laneName, "c"):
		chat, err := strconv.ParseInt(laneName[1:], 10, 64)
		if err != nil {
			return heldItem{}, false
		}
		return heldItem{laneKey{chat: chat}, id}, true
	}
	return heldItem{}, false
}

// park writes u into the inbox. Rewriting it is harmless: same key, same
// update.
func (b inbox) park(ctx context.Context, k laneKey, u *models.Update) error {
	raw, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("inbox: update %d: %w", u.ID, err)
	}
	if err := b.store.Put(ctx, inboxKey(k, u.ID), raw); err != nil {
		return fmt.Errorf("inbox: park update %d: %w", u.ID, err)
	}
	return nil
}

// load reads a parked update back; storage.ErrNotFound when it is gone.
func (b inbox) load(ctx context.Context, k laneKey, id int64) (*models.Update, error) {
	raw, err := b.store.Get(ctx, inboxKey(k, id))
	if err != nil {
		return nil, fmt.Errorf("inbox: load update %d: %w", id, err)
	}
	var u models.Update
	if err := json.Unmarshal(raw, &u); err != nil {
		// Written by json.Marshal of the same type: only a damaged item
		// gets here. Its id is known, so the core skips it like any
		// update it cannot read, and the backlog goes on.
		return &models.Update{ID: id}, nil
	}
	return &u, nil
}

// drop removes a handled update. It is tried a few times: an item left
// behind is handled again after a restart (as a duplicate, unless its
// dedup slot has gone to a newer update by then).
func (b inbox) drop(ctx context.Context, k laneKey, id int64) error {
	var err error
	for try := range 3 {
		if err = b.store.Delete(ctx, inboxKey(k, id)); err == nil {
			return nil
		}
		if perr := pause.For(ctx, time.Duration(100<<try)*time.Millisecond); perr != nil {
			break
		}
	}
	return fmt.Errorf("inbox: drop update %d: %w", id, err)
}

// list is every parked update, each lane's in id order.
func (b inbox) list(ctx context.Context) ([]heldItem, error) {
	keys, err := b.store.List(ctx, inboxPrefix)
	if err != nil {
		return nil, fmt.Errorf("inbox: list: %w", err)
	}
	items := make([]heldItem, 0, len(keys))
	for _, key := range keys {
		if it, ok := parseInboxKey(key); ok {
			items = append(items, it)
		}
	}
	return items, nil
}
