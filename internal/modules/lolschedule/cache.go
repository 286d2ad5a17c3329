package lolschedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Cache policy: a page younger than fresh is served without a call; when the
// API fails, a copy younger than stale still answers.
const (
	fresh = 2 * time.Minute
	stale = time.Hour
)

type cachedPage struct {
	FetchedAt time.Time       `json:"fetched_at"`
	Body      json.RawMessage `json:"body"`
}

// pageKey names a page in the store; page tokens are base64 and may hold "/".
func pageKey(token string) string {
	if token == "" {
		return "page:current"
	}
	sum := sha256.Sum256([]byte(token))
	return "page:" + hex.EncodeToString(sum[:12])
}

// page returns one schedule page through the store's cache.
func (m *module) page(ctx context.Context, token string) (scheduleDoc, error) {
	var doc scheduleDoc
	key := pageKey(token)
	var cached cachedPage
	err := m.store.GetJSON(ctx, key, &cached)
	haveCopy := err == nil
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		m.log.Warn("schedule cache unreadable", "err", err)
	}
	age := m.now().Sub(cached.FetchedAt)
	if haveCopy && age < fresh {
		return doc, json.Unmarshal(cached.Body, &doc)
	}
	body, err := m.api.fetchPage(ctx, token)
	if err != nil {
		if haveCopy && age < stale {
			m.log.Warn("schedule API failed; serving the cached copy", "age", age.Round(time.Second), "err", err)
			return doc, json.Unmarshal(cached.Body, &doc)
		}
		return doc, err
	}
	if err := m.store.PutJSON(ctx, key, cachedPage{FetchedAt: m.now(), Body: body}); err != nil {
		m.log.Warn("schedule cache not written", "err", err)
	}
	return doc, json.Unmarshal(body, &doc)
}

// maxPages bounds the pages followed each way from the current one.
const maxPages = 8

// matches returns the matches starting in [from, to), following the pages
// back (older) and forward (newer) from the current one as far as needed.
func (m *module) matches(ctx context.Context, from, to time.Time) ([]match, error) {
	cur, err := m.page(ctx, "")
	if err != nil {
		return nil, err
	}
	first, last := bounds(cur.Data.Schedule.Events)
	older, err := m.follow(ctx, cur.Data.Schedule.Pages.Older, true, first, from)
	if err != nil {
		return nil, err
	}
	newer, err := m.follow(ctx, cur.Data.Schedule.Pages.Newer, false, last, to)
	if err != nil {
		return nil, err
	}
	return selectMatches(slices.Concat(cur.Data.Schedule.Events, older, newer), from, to), nil
}

// follow reads the pages from token on, one way, until the farthest start
// seen that way (edge) reaches bound: older pages until one starts at or
// before it, newer ones until one starts after it.
func (m *module) follow(ctx context.Context, token string, older bool, edge, bound time.Time) ([]eventDoc, error) {
	reached := func(t time.Time) bool { return !t.IsZero() && (older && !t.After(bound) || !older && t.After(bound)) }
	var events []eventDoc
	for i := 0; i < maxPages && token != "" && !reached(edge); i++ {
		p, err := m.page(ctx, token)
		if err != nil {
			return nil, err
		}
		evs, pages := p.Data.Schedule.Events, p.Data.Schedule.Pages
		events = append(events, evs...)
		first, far := bounds(evs)
		token = pages.Newer
		if older {
			token, far = pages.Older, first
		}
		if !far.IsZero() {
			edge = far
		}
	}
	return events, nil
}

func bounds(evs []eventDoc) (first, last time.Time) {
	for _, e := range evs {
		if first.IsZero() || e.StartTime.Before(first) {
			first = e.StartTime
		}
		if e.StartTime.After(last) {
			last = e.StartTime
		}
	}
	return first, last
}
