// Package util is the bot's front door: /start, /help (generated from the
// registry, honouring visibility) and /info (ids for the owner and admins).
package util

import (
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
)

// Name is the module's name in MODULES.
const Name = "util"

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	return &app.Module{
		Name: Name,
		Commands: []app.Command{
			{Name: "start", Description: "Say hello and show what the bot can do", Handler: func(ctx context.Context, r *app.Request) error {
				return r.ReplyHTML(ctx, "Hi! I am miti99bot.\n\n"+d.Registry.HelpText(r.Role))
			}},
			{Name: "help", Description: "List the commands you can use", Handler: func(ctx context.Context, r *app.Request) error {
				return r.ReplyHTML(ctx, d.Registry.HelpText(r.Role))
			}},
			{Name: "info", Description: "Show chat, topic and sender ids", Visibility: app.Protected, Handler: info},
		},
	}, nil
}

func info(ctx context.Context, r *app.Request) error {
	return r.Reply(ctx, fmt.Sprintf("chat_id: %d\nthread_id: %d\nuser_id: %d", r.ChatID, r.ThreadID, r.UserID))
}
