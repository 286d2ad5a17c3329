package trading

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// ListCommand is "/<name>_alerts": the user's alerts, a Cancel button each.
func (a *Alerts) ListCommand(ctx context.Context, r *app.Request) error {
	text, kb, err := a.list(ctx, r.Words, r.UserID, r.ChatID, r.Private)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, text, kb)
	return err
}

// list is a user's alerts: all of them in a private chat, those set in
// the group it is asked in otherwise (a group sees no one's other chats).
func (a *Alerts) list(ctx context.Context, w app.Words, user, chat int64, private bool) (string, *models.InlineKeyboardMarkup, error) {
	b, err := a.loadBook(ctx, user)
	if err != nil {
		return "", nil, err
	}
	var lines []string
	var rows [][]app.Button
	waits := a.waits(ctx)
	for _, al := range b.Alerts {
		if !private && al.Chat != chat {
			continue
		}
		line := a.describe(w, al)
		if al.OldFired != nil {
			line += w.T("trading.alert.firing")
		} else {
			rows = append(rows, []app.Button{a.cancelButton(user, al.ID, w.T("trading.alert.cancel")+" "+line)})
			line += a.waitNote(w, waits, al.Symbol)
		}
		if private && al.Chat != user {
			line += w.T("trading.alert.in_group")
		}
		lines = append(lines, fmt.Sprintf("%d. %s", len(lines)+1, line))
	}
	args := app.Args{"Name": a.Desk.Name, "Market": w.T("noun"), "Example": a.Desk.AlertExample, "Count": len(b.Alerts), "Max": MaxAlerts}
	key := "trading.alert.list"
	if !private {
		key = "trading.alert.list_group"
	}
	if len(lines) == 0 {
		return w.T(key+"_none", args), nil, nil
	}
	head := w.T(key, args)
	var kb *models.InlineKeyboardMarkup
	if len(rows) > 0 {
		// Prefix, a letter and two ids: far under 64 bytes (a test covers it).
		kb = app.MustKeyboard(rows...)
	}
	return head + "\n" + strings.Join(lines, "\n"), kb, nil
}
