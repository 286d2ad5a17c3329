package core

import (
	"context"
	"sync"

	"github.com/miti99bot/miti99bot/internal/app"
)

// answerOnce is the Messenger a callback handler gets: it sends the press's
// answer once (Telegram shows only the first; a second costs an API call
// and a 400) and tells the core whether the handler answered.
type answerOnce struct {
	app.Messenger
	queryID string

	mu   sync.Mutex
	done bool
}

var _ app.Messenger = (*answerOnce)(nil)

func (p *answerOnce) AnswerCallback(ctx context.Context, queryID, text string) error {
	if queryID != p.queryID {
		return p.Messenger.AnswerCallback(ctx, queryID, text)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return nil
	}
	if err := p.Messenger.AnswerCallback(ctx, queryID, text); err != nil {
		return err
	}
	p.done = true
	return nil
}

func (p *answerOnce) answered() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// markAnswered notes that an earlier run of the update answered the press
// (its record says so): Telegram shows only that answer.
func (p *answerOnce) markAnswered() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
}
