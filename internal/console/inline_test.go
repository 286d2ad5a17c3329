package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// An "@" line is an inline query from the console's user, and its answer
// prints numbered, each result with the message picking it would send.
func TestAnAtLineIsAnInlineQueryAndItsResultsPrintNumbered(t *testing.T) {
	var out bytes.Buffer
	m := NewMessenger(&out)
	var queries []string
	input := "@btc\n@miti99bot  gold \n@\n@nothing\n"
	err := m.Run(t.Context(), strings.NewReader(input), &out, func(ctx context.Context, u *models.Update) error {
		q := u.InlineQuery
		if q == nil || q.From == nil || q.From.ID != UserID || q.ID == "" {
			t.Fatalf("update %+v: want an inline query from the console's user", u)
		}
		queries = append(queries, q.Query)
		var results []app.InlineResult
		if q.Query != "nothing" {
			results = []app.InlineResult{
				{ID: "a", Title: "Coin " + q.Query, Description: "$1", Text: "BTC: $1\nPrice at 19:00 ICT"},
				{ID: "b", Title: "Other", Text: "<b>bold</b>", ParseMode: models.ParseModeHTML},
			}
		}
		return m.AnswerInline(ctx, app.InlineAnswer{QueryID: q.ID, Results: results})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(queries, "|"); got != "btc|gold||nothing" {
		t.Fatalf("queries %q", got)
	}
	for _, want := range []string{
		"bot (inline)> 1. Coin btc — $1\nbot (inline)>    BTC: $1\nbot (inline)>    Price at 19:00 ICT\nbot (inline)> 2. Other\nbot (inline)>    bold\n",
		"bot (inline)> no results\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the console printed:\n%s\nwant:\n%s", out.String(), want)
		}
	}
}
