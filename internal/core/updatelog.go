package core

import (
	"context"
	"log/slog"

	"github.com/go-telegram/bot/models"
)

// updateKind names an update's kind for metrics: the field Telegram set.
func updateKind(u *models.Update) string {
	switch {
	case u.Message != nil:
		return "message"
	case u.EditedMessage != nil:
		return "edited_message"
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.MyChatMember != nil:
		return "my_chat_member"
	case u.ChannelPost != nil:
		return "channel_post"
	case u.InlineQuery != nil:
		return "inline_query"
	}
	return "other"
}

// updateLog writes an update's log lines, each with its update_id,
// module and action, without building a logger per update: most updates
// log nothing at the configured level.
type updateLog struct {
	l   *slog.Logger
	id  int64
	act *action
}

func (u updateLog) at(ctx context.Context, level slog.Level, msg string, args ...any) {
	if !u.l.Enabled(ctx, level) {
		return
	}
	u.l.Log(ctx, level, msg, append([]any{"update_id", u.id, "module", u.act.module, "action", u.act.name}, args...)...)
}
