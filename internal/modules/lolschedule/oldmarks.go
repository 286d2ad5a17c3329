package lolschedule

import (
	"context"
	"encoding/json"
	"strings"
)

// oldSentPrefix: the build before the push's timers marked each chat's day
// with a claim at "sent:<day>:<chat>:<thread>".
const oldSentPrefix = "sent:"

// oldMarks reads the marks of day the build before this one left, for the
// deploy day: a chat it pushed, or was pushing, must not get the day again
// from this build. Marks of days before day are removed (failures only
// cost space); day's are left as they are, for a rollback to read. A read
// that fails marks nothing: the day is then pushed as if no mark were there.
func (m *module) oldMarks(ctx context.Context, day string) map[subscriber]bool {
	keys, err := m.store.List(ctx, oldSentPrefix)
	if err != nil {
		return nil
	}
	pushed := map[subscriber]bool{}
	for _, k := range keys {
		rest, _ := strings.CutPrefix(k, oldSentPrefix)
		switch d, _, _ := strings.Cut(rest, ":"); {
		case d < day:
			_ = m.store.Delete(ctx, k)
		case d == day:
			if s, ok := m.oldPushed(ctx, k); ok {
				pushed[s] = true
			}
		}
	}
	return pushed
}

// oldPushed reports the chat a mark names, if the mark says its push was
// sent or being sent: only a send that failed left its claim free (an
// unreadable mark counts as sent, as the old build read it).
func (m *module) oldPushed(ctx context.Context, key string) (subscriber, bool) {
	_, s, ok := parsePushKey(pushPrefix + strings.TrimPrefix(key, oldSentPrefix))
	if !ok {
		return s, false
	}
	v, err := m.store.Get(ctx, key)
	if err != nil {
		return s, false
	}
	var mark struct {
		State string `json:"state"`
	}
	return s, json.Unmarshal(v, &mark) != nil || mark.State != "failed"
}
