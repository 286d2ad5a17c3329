package remind

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/app"
)

// /remind with nothing after it asks what and when, one message each, as a
// conversation (app.Conversations): each answer moves it once, a wrong
// time is asked again, and /cancel or five minutes' silence ends it.
const (
	stepWhat = "what"
	stepWhen = "when"
)

// steps are the conversation's steps.
func (m *module) steps() map[string]app.TextHandler {
	return map[string]app.TextHandler{stepWhat: m.stepWhat, stepWhen: m.stepWhen}
}

// ask starts the conversation: what, then when.
func (m *module) ask(ctx context.Context, r *app.Request) error {
	if err := m.conv.Start(ctx, app.ConversationOf(r, stepWhat, 0, nil)); err != nil {
		return err
	}
	_, err := r.Ask(ctx, r.T("ask_what"))
	return err
}

func (m *module) stepWhat(ctx context.Context, r *app.TextRequest) error {
	if utf8.RuneCountInString(r.Text) > maxText {
		if err := r.Continue(ctx, stepWhat, 0, nil); err != nil {
			return err
		}
		_, err := r.Ask(ctx, errTooLong.text(r.Words))
		return err
	}
	if err := r.Continue(ctx, stepWhen, 0, []byte(r.Text)); err != nil {
		return err
	}
	_, err := r.Ask(ctx, r.T("ask_when", app.Args{"Zone": r.ZoneName()}))
	return err
}

// stepWhen sets the reminder as /remind <when> <what> does, once per
// update; a time it cannot take is asked again.
func (m *module) stepWhen(ctx context.Context, r *app.TextRequest) error {
	what := string(r.Conversation.State)
	args := strings.TrimSpace(r.Text) + " " + what
	_, _, err := parse(r.Lang, args, m.now(), r.Zone())
	if s, ok := why(r.Words, err); ok {
		if err := r.Continue(ctx, stepWhen, 0, r.Conversation.State); err != nil {
			return err
		}
		_, err := r.Ask(ctx, s)
		return err
	}
	req := *r.Request
	req.Command, req.Args = Name, args
	return m.remind(ctx, &req)
}
