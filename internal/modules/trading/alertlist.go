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
	text, kb, err := a.list(ctx, r.UserID, r.ChatID, r.Private)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, text, kb)
	return err
}

// list is a user's alerts: all of them in a private chat, those set in
// the group it is asked in otherwise (a group sees no one's other chats).
func (a *Alerts) list(ctx context.Context, user, chat int64, private bool) (string, *models.InlineKeyboardMarkup, error) {
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
		line := a.describe(al)
		if al.OldFired != nil {
			line += " (firing)"
		} else {
			rows = append(rows, []app.Button{a.cancelButton(user, al.ID, "❌ Cancel "+line)})
			line += waitNote(waits, al.Symbol)
		}
		if private && al.Chat != user {
			line += " (in a group)"
		}
		lines = append(lines, fmt.Sprintf("%d. %s", len(lines)+1, line))
	}
	where := ""
	if !private {
		where = " set in this group"
	}
	if len(lines) == 0 {
		return fmt.Sprintf("You have no %s alerts%s. Set one: /%s_alert %s", a.Desk.Name, where, a.Desk.Name, a.Example), nil, nil
	}
	head := fmt.Sprintf("Your %s alerts%s (%d of at most %d):", a.Desk.Name, where, len(b.Alerts), MaxAlerts)
	var kb *models.InlineKeyboardMarkup
	if len(rows) > 0 {
		// Prefix, a letter and two ids: far under 64 bytes (a test covers it).
		kb = app.MustKeyboard(rows...)
	}
	return head + "\n" + strings.Join(lines, "\n"), kb, nil
}
