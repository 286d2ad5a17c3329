package console

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// inlineQuery reads an "@" line as an inline query, as typing "@bot btc"
// in a chat asks one: "@btc", "@ btc" and "@miti99bot btc" all ask "btc";
// "@" alone asks the empty query.
func inlineQuery(text string) (query string, ok bool) {
	rest, ok := strings.CutPrefix(text, "@")
	if !ok {
		return "", false
	}
	if name, after, _ := strings.Cut(rest, " "); strings.EqualFold(name, "miti99bot") {
		rest = after
	}
	return strings.TrimSpace(rest), true
}

func inlineUpdate(id int64, query string) *models.Update {
	return &models.Update{ID: id, InlineQuery: &models.InlineQuery{
		ID:       fmt.Sprint(id),
		From:     &models.User{ID: UserID, FirstName: "You", Username: "you"},
		Query:    query,
		ChatType: "sender",
	}}
}

// AnswerInline prints the results numbered, each with what picking it
// would send.
func (m *Messenger) AnswerInline(_ context.Context, a app.InlineAnswer) error {
	if len(a.Results) == 0 {
		m.print(m.say("inline"), m.say("no_results"))
		return nil
	}
	var b strings.Builder
	for i, r := range a.Results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. %s", i+1, r.Title)
		if r.Description != "" {
			b.WriteString(" — " + r.Description)
		}
		text, mode := app.Fit(r.Text, r.ParseMode)
		b.WriteString("\n   " + strings.ReplaceAll(plain(text, mode), "\n", "\n   "))
	}
	m.print(m.say("inline"), b.String())
	return nil
}
