package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/go-telegram/bot/models"
)

// topicBot refuses every send into a topic with refusal; it records the
// sends it took.
type topicBot struct {
	Messenger
	refusal error
	took    []Message
}

func (b *topicBot) Send(_ context.Context, m Message) (*models.Message, error) {
	if m.ThreadID != 0 && b.refusal != nil {
		return nil, b.refusal
	}
	b.took = append(b.took, m)
	return &models.Message{ID: len(b.took)}, nil
}

// A message owed to a forum topic that is closed or gone goes to the chat
// itself; any other refusal is the send's answer, not retried elsewhere.
func TestASendToATopicRefusedThereGoesToTheChat(t *testing.T) {
	closed := fmt.Errorf("topic_closed: %w: %w", ErrSendRefused, ErrRejected)
	deleted := fmt.Errorf("topic_deleted: %w: %w", ErrSendRefused, ErrThreadNotFound)
	rights := fmt.Errorf("not enough rights: %w: %w", ErrNoRights, ErrRejected)
	for _, tc := range []struct {
		name    string
		refusal error
		thread  int
		wantErr error
		want    int // the topic of the message taken; -1: none
	}{
		{"an open topic", nil, 7, nil, 7},
		{"a closed topic", closed, 7, nil, 0},
		{"a deleted topic", deleted, 7, nil, 0},
		{"no right to send", rights, 7, ErrNoRights, -1},
		{"no topic", nil, 0, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := &topicBot{refusal: tc.refusal}
			_, err := SendInTopicOrChat(context.Background(), bot, Message{ChatID: -100, ThreadID: tc.thread, Text: "hi"})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("err %v; want %v", err, tc.wantErr)
			}
			switch {
			case tc.want < 0 && len(bot.took) != 0:
				t.Fatalf("took %+v; want nothing", bot.took)
			case tc.want >= 0 && (len(bot.took) != 1 || bot.took[0].ThreadID != tc.want || bot.took[0].ChatID != -100):
				t.Fatalf("took %+v; want one message in chat -100, topic %d", bot.took, tc.want)
			}
		})
	}
}
