package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
)

// setConvTimer sets the timer of the wait seq at key, due at; one set
// already is no error.
func (a *App) setConvTimer(ctx context.Context, key string, seq int64, at time.Time) error {
	where := (&convRecord{}).conversation(key)
	_, err := a.timers.For(convTimerOwner).Set(ctx, app.Timer{Key: convTimerKey(key, seq), ChatID: where.ChatID, ThreadID: where.ThreadID, At: at, Payload: []byte(key)})
	if err != nil && !errors.Is(err, app.ErrTimerExists) {
		return fmt.Errorf("conversation %s: its timer: %w", key, err)
	}
	return nil
}

// ensureTimer sets the timer of the wait rec is at, if it waits.
func (a *App) ensureTimer(ctx context.Context, key string, rec convRecord) error {
	if !rec.waiting(a.now()) {
		return nil
	}
	return a.setConvTimer(ctx, key, rec.Seq, rec.Expires)
}

// conversationTimedOut is the timer of a wait: it ends the conversation
// if it still waits there, and says so, once (applied by the timer's id).
func (a *App) conversationTimedOut(ctx context.Context, t app.Timer) error {
	key := string(t.Payload)
	seq, err := strconv.ParseInt(t.Key[strings.LastIndexByte(t.Key, ':')+1:], 10, 64)
	if err != nil {
		return nil // not a timer of a wait: nothing to do, ever
	}
	ch, err := app.ApplyOnce(ctx, a.core, key, t.ID, func(r *convRecord, _ bool) (convChange, error) {
		if r.Module == "" || r.Seq != seq {
			return convChange{}, errNoChange
		}
		return r.end(key), nil
	})
	switch {
	case errors.Is(err, errNoChange):
		return nil
	case err != nil:
		return err
	}
	if mod := a.moduleNamed(ch.EndedBy); mod != nil && mod.OnConversationEnd != nil {
		c := *ch.Ended
		c.ChatID, c.ThreadID = t.ChatID, t.ThreadID // where the chat is now
		return mod.OnConversationEnd(ctx, app.ConversationEnd{Conversation: c, Reason: app.EndTimedOut})
	}
	// The conversation has ended: a store that cannot say the chat's
	// language leaves the notice in English rather than unsaid.
	lang, _ := a.chatLang(ctx, t.ChatID)
	_, err = a.bot.Send(ctx, app.Message{ChatID: t.ChatID, ThreadID: t.ThreadID, Text: a.say(lang, "timed_out")})
	return err
}
