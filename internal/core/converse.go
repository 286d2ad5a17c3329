package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Texts of the engine's conversations.
const (
	cancelCommand  = "cancel"
	convTimerOwner = storage.CoreNamespace // the timers' module: no module may be named so
)

// convRecord is the one conversation of a user in a chat and topic, kept
// in the engine's namespace: whichever module holds it, one record, so two
// modules never both wait for the same message. An ended conversation
// stays as a record with no Module, remembering the updates that moved it.
type convRecord struct {
	app.Once[convChange]
	Module  string    `json:"module,omitempty"` // "": none waits
	Step    string    `json:"step,omitempty"`
	State   []byte    `json:"state,omitempty"`
	Seq     int64     `json:"seq"` // which wait this is: its timer's
	Expires time.Time `json:"expires,omitzero"`
}

// convChange is what a change to a record did, kept with it so that the
// change told again (the update delivered again) finishes its work: the
// timer to set, the one to cancel, the conversation it ended.
type convChange struct {
	Seq     int64             `json:"seq,omitempty"`  // the new wait, whose timer to set
	At      time.Time         `json:"at,omitzero"`    // when it times out
	Prev    int64             `json:"prev,omitempty"` // the wait it ended, whose timer to cancel
	Ended   *app.Conversation `json:"ended,omitempty"`
	EndedBy string            `json:"by,omitempty"` // the module of Ended
	// Answered is the wait a step's message answered, when the change is
	// a step's: the message delivered again runs that step again.
	Answered *convWait `json:"answered,omitempty"`
}

// convWait is the wait a message found: its module's step and state.
type convWait struct {
	Module string `json:"module"`
	Step   string `json:"step"`
	State  []byte `json:"state,omitempty"`
	Seq    int64  `json:"seq"`
}

func (r *convRecord) wait() *convWait {
	return &convWait{Module: r.Module, Step: r.Step, State: r.State, Seq: r.Seq}
}

// errNoChange: the record is not as the change needs; write nothing.
var errNoChange = errors.New("conversation: no change")

func convKey(chat int64, thread int, user int64) string {
	return fmt.Sprintf("conv:%d:%d:%d", chat, thread, user)
}

func convTimerKey(key string, seq int64) string { return key + ":" + strconv.FormatInt(seq, 10) }

func (r *convRecord) waiting(now time.Time) bool {
	return r.Module != "" && now.Before(r.Expires)
}

func (r *convRecord) conversation(key string) *app.Conversation {
	var c app.Conversation
	_, _ = fmt.Sscanf(key, "conv:%d:%d:%d", &c.ChatID, &c.ThreadID, &c.UserID)
	c.Step, c.State = r.Step, r.State
	return &c
}

// end makes r a record of no conversation and says what ended.
func (r *convRecord) end(key string) convChange {
	ch := convChange{Prev: r.Seq, Ended: r.conversation(key), EndedBy: r.Module}
	r.Module, r.Step, r.State, r.Expires = "", "", nil, time.Time{}
	return ch
}

// change applies f to the record at key once per update (app.ApplyOnce),
// then does what the change asks outside the write: sets the new wait's
// timer, cancels the old one. errNoChange from f is no error.
func (a *App) changeConv(ctx context.Context, key string, update int64, f func(r *convRecord) (convChange, error)) (convChange, error) {
	ch, err := app.ApplyOnce(ctx, a.core, key, update, func(r *convRecord, _ bool) (convChange, error) { return f(r) }, app.Remember(4))
	if errors.Is(err, errNoChange) {
		return convChange{}, nil
	}
	if err != nil {
		return ch, fmt.Errorf("conversation %s: %w", key, err)
	}
	if ch.Seq != 0 {
		if err := a.setConvTimer(ctx, key, ch.Seq, ch.At); err != nil {
			return ch, err
		}
	}
	if ch.Prev != 0 {
		if _, err := a.timers.For(convTimerOwner).Cancel(ctx, convTimerKey(key, ch.Prev)); err != nil {
			return ch, fmt.Errorf("conversation %s: cancel its last timer: %w", key, err)
		}
	}
	return ch, nil
}

// moduleConversations is app.Conversations for one module.
type moduleConversations struct {
	a      *App
	module string
}

var _ app.Conversations = moduleConversations{}

func (m moduleConversations) Start(ctx context.Context, c app.Conversation) error {
	mod := m.a.moduleNamed(m.module)
	switch {
	case mod == nil || mod.Steps[c.Step] == nil:
		return fmt.Errorf("%w: module %q has no step %q", app.ErrConversationInvalid, m.module, c.Step)
	case c.ChatID == 0 || c.UserID == 0:
		return fmt.Errorf("%w: no chat or user", app.ErrConversationInvalid)
	case c.TTL < 0 || c.TTL > app.MaxConversationTTL:
		return fmt.Errorf("%w: ttl %v beyond %v", app.ErrConversationInvalid, c.TTL, app.MaxConversationTTL)
	case len(c.State) > app.MaxConversationState:
		return fmt.Errorf("%w: state of %d bytes beyond %d", app.ErrConversationInvalid, len(c.State), app.MaxConversationState)
	}
	ttl := c.TTL
	if ttl == 0 {
		ttl = app.DefaultConversationTTL
	}
	now := m.a.now()
	key := convKey(c.ChatID, c.ThreadID, c.UserID)
	ch, err := m.a.changeConv(ctx, key, c.Update, func(r *convRecord) (convChange, error) {
		var answered *convWait
		if c.Seq != 0 { // a step's Continue, from the wait its message answered
			if r.Module != m.module || r.Seq != c.Seq {
				return convChange{}, app.ErrConversationMoved
			}
			answered = r.wait()
		}
		var ch convChange
		if r.Module != "" {
			live := now.Before(r.Expires)
			if ch = r.end(key); ch.EndedBy == m.module || !live {
				ch.Ended, ch.EndedBy = nil, "" // a move, or a wait already over
			}
		}
		r.Seq++
		r.Module, r.Step, r.State = m.module, c.Step, c.State
		r.Expires = now.Add(ttl).Truncate(time.Second).Add(time.Second)
		ch.Seq, ch.At, ch.Answered = r.Seq, r.Expires, answered
		return ch, nil
	})
	if err != nil {
		return err
	}
	m.a.tellEnded(ctx, ch, app.EndReplaced)
	return nil
}

func (m moduleConversations) End(ctx context.Context, chat int64, thread int, user, update int64) error {
	key := convKey(chat, thread, user)
	_, err := m.a.changeConv(ctx, key, update, func(r *convRecord) (convChange, error) {
		if r.Module != m.module {
			return convChange{}, errNoChange
		}
		answered := r.wait() // when a step ends it
		ch := r.end(key)
		ch.Ended, ch.Answered = nil, answered // the module ends it itself: nothing to tell
		return ch, nil
	})
	return err
}

// endStep ends the wait seq a step answered, unless the step moved it
// (Continue) or something else did since.
func (a *App) endStep(ctx context.Context, key, module string, seq, update int64) error {
	_, err := a.changeConv(ctx, key, update, func(r *convRecord) (convChange, error) {
		if r.Module != module || r.Seq != seq {
			return convChange{}, errNoChange
		}
		answered := r.wait()
		ch := r.end(key)
		ch.Ended, ch.Answered = nil, answered
		return ch, nil
	})
	return err
}

// tellEnded tells the module whose conversation ch ended why. Its error
// is logged: the change that ended it stands.
func (a *App) tellEnded(ctx context.Context, ch convChange, why app.EndReason) {
	if ch.Ended == nil {
		return
	}
	mod := a.moduleNamed(ch.EndedBy)
	if mod == nil || mod.OnConversationEnd == nil {
		return
	}
	err := a.safely(ctx, mod.Name, "conversation end", "", 0, 0, func() error {
		return mod.OnConversationEnd(ctx, app.ConversationEnd{Conversation: *ch.Ended, Reason: why})
	})
	if err != nil {
		a.log.Warn("conversation end hook failed", "module", mod.Name, "reason", why.String(), "err", err)
	}
}

// moduleNamed is the enabled module called name (nil: none).
func (a *App) moduleNamed(name string) *app.Module {
	for _, m := range a.reg.modules {
		if m.Name == name {
			return m
		}
	}
	return nil
}
