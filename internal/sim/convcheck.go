package sim

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// convRecord is what the life reads of the engine's record of a user's
// conversation in a chat and topic (internal/core/converse.go): the step
// it waits at ("" none) and its seq, which each start or move of the
// conversation adds one to, and nothing else changes.
type convRecord struct {
	Module string `json:"module"`
	Step   string `json:"step"`
	Seq    int64  `json:"seq"`
}

// conv is the step r's user's conversation in r's chat and topic waits at
// ("": none) and its seq.
func (l *life) conv(r *reminder) (string, int64) {
	var rec convRecord
	key := fmt.Sprintf("conv:%d:%d:%d", r.chat.id, r.thread, r.user)
	err := l.cfg.Store.For(storage.CoreNamespace).GetJSON(context.Background(), key, &rec)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		l.t.Fatal(err)
	}
	return rec.Step, rec.Seq
}

// checkConv: once the user saw the answer to a step, the conversation
// waits at step ("": it ended) and has moved once per step: seq.
func (l *life) checkConv(r *reminder, step string, seq int64) {
	if got, n := l.conv(r); got != step || n != seq {
		l.fail("conversations", "%s in %d/%d: the conversation waits at %q, move %d; want %q, move %d", r.token, r.chat.id, r.thread, got, n, step, seq)
	}
}
