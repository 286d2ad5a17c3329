// Package timer is the engine behind app.Timers: modules' one-off timers
// kept in the core namespace, found each minute by a tick and fired once
// with the claim rule (internal/claim) and the store's conditional delete.
//
// Three records per pending timer:
//
//	timer:at:<YYYYMMDDHH>:<MMSS>:<module>:<id>  the timer (record), by due hour
//	timer:by:<module>:<key>                    its due key (List, Cancel, Set)
//	timer:chat:<chat>:<id>                     its due key (a chat's move)
//
// The due record is the truth; the two indexes point to it. A timer with
// a Keep that fired is filed again, done, under the second its Keep ends,
// with only its module index pointing to it: it holds the key until a
// tick reaches that second and forgets it (the sweep needs no index of its
// own, and the store no expiry). A tick lists
// the hours from its cursor (timer:swept) to the current one, one List
// each, so finding what is due costs a few round trips however many
// timers wait in later hours.
package timer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Key prefixes in storage.CoreNamespace.
const (
	duePrefix  = "timer:at:"
	byPrefix   = "timer:by:"
	chatPrefix = "timer:chat:"
	cursorKey  = "timer:swept"
)

const hourLayout = "2006010215"

// record is a timer as stored at its due key. State, At and Attempts are
// its claim (internal/claim's states): "" while pending, running while a
// callback runs, failed after one returned an error, done once it ran and
// is kept (Keep seconds from At).
type record struct {
	Module   string `json:"module"`
	Key      string `json:"key"`
	ID       int64  `json:"id"`
	Chat     int64  `json:"chat"`
	Thread   int    `json:"thread,omitempty"`
	Due      int64  `json:"due"` // unix seconds
	Payload  []byte `json:"payload,omitempty"`
	State    string `json:"state,omitempty"`
	At       int64  `json:"at,omitempty"` // unix nanos of the last claim change
	Attempts int    `json:"attempts,omitempty"`
	Keep     int64  `json:"keep,omitempty"` // seconds the key stays taken once done
	// Cancelled: done by a Cancel, not by its callback (kept, never fired).
	Cancelled bool `json:"cancelled,omitempty"`
}

func (r record) encode() []byte {
	b, _ := json.Marshal(r) // plain fields: cannot fail
	return b
}

// decode reads the record at dk. One that does not decode is a damaged
// item (storage.DamagedError): named by its key and fingerprint, never by
// its bytes, which hold what a module keeps (a reminder's text).
func decode(dk string, v []byte) (record, error) {
	var r record
	err := json.Unmarshal(v, &r)
	if err == nil && (r.Module == "" || r.ID == 0) {
		err = errors.New("no module or id")
	}
	if err != nil {
		return r, storage.Damaged(storage.CoreNamespace, dk, v, fmt.Errorf("not a timer record: %w", err))
	}
	return r, nil
}

func (r record) state() claim.State { return claim.Parse(r.State) }

func (r record) timer() app.Timer {
	return app.Timer{Key: r.Key, ChatID: r.Chat, ThreadID: r.Thread, At: time.Unix(r.Due, 0).UTC(),
		Payload: r.Payload, Keep: time.Duration(r.Keep) * time.Second, ID: r.ID, Attempt: r.Attempts, Cancelled: r.Cancelled}
}

// holds reports whether the timer holds its key at now: pending, running
// or failed (to be tried again), or done within its Keep.
func (r record) holds(now time.Time) bool {
	if r.state() != claim.Done {
		return true
	}
	return now.Before(r.keptUntil())
}

// kept is r done at now, as filed again to hold its key for its Keep,
// and where it is filed.
func (r record) kept(now time.Time) (record, string) {
	r.State, r.At = "done", now.UnixNano()
	return r, dueKey(roundUp(r.keptUntil()), r.Module, r.ID)
}

// keptUntil is when a done timer lets its key go.
func (r record) keptUntil() time.Time {
	return time.Unix(0, r.At).Add(time.Duration(r.Keep) * time.Second)
}

// roundUp is t to the second, rounded up.
func roundUp(t time.Time) time.Time {
	s := t.UTC().Truncate(time.Second)
	if s.Before(t) {
		s = s.Add(time.Second)
	}
	return s
}

func hourOf(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

func hourPrefix(h time.Time) string { return duePrefix + h.UTC().Format(hourLayout) + ":" }

// dueKey files a timer under the second it is due in.
func dueKey(at time.Time, module string, id int64) string {
	at = at.UTC()
	return hourPrefix(at) + at.Format("0405") + ":" + module + ":" + strconv.FormatInt(id, 36)
}

// dueOf reads the second a due key files its timer under.
func dueOf(key string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(key, duePrefix)
	if !ok || len(rest) < len(hourLayout)+1+4 {
		return time.Time{}, false
	}
	t, err := time.Parse(hourLayout+":0405", rest[:len(hourLayout)+5])
	return t, err == nil
}

func byKey(module, key string) string { return byPrefix + module + ":" + key }

func chatKey(chat, id int64) string {
	return chatPrefix + strconv.FormatInt(chat, 10) + ":" + strconv.FormatInt(id, 36)
}

func chatKeys(chat int64) string { return chatPrefix + strconv.FormatInt(chat, 10) + ":" }

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
