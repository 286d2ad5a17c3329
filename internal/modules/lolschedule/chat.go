package lolschedule

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/app"
)

// moveMarks is the module's OnChatChange (its subscriptions are its
// ChatState, which the engine moves first, and the engine moves the
// chat's pending timers): a day's push already set for the chat's old id
// takes the day's key under its new id too, so a run told again does not
// push there a second time. Run twice, or by both runtimes at once, it
// ends the same.
func (m *module) moveMarks(ctx context.Context, ch app.ChatChange) error {
	if ch.MovedTo == 0 {
		return nil
	}
	keys, err := m.timers.Keys(ctx, pushPrefix)
	if err != nil {
		return err
	}
	for _, k := range keys {
		day, s, ok := parsePushKey(k)
		if !ok || s.ChatID != ch.ChatID {
			continue
		}
		if err := m.holdMoved(ctx, day, subscriber{ChatID: ch.MovedTo, ThreadID: s.ThreadID}); err != nil {
			return err
		}
	}
	return nil
}
