package apptest

import "github.com/miti99bot/miti99bot/internal/telegramtest"

// Inline asks the inline query query as userID (typed in a supergroup)
// and returns the one answer the fake Bot API took for it; the test fails
// when there is none, or more than one.
func (b *Bot) Inline(userID int64, query string) telegramtest.InlineAnswer {
	b.t.Helper()
	before := len(b.Srv.InlineAnswers())
	if err := b.Handle(b.Srv.InlineQuery(userID, query, "supergroup")); err != nil {
		b.t.Fatalf("@bot %s: %v", query, err)
	}
	got := b.Srv.InlineAnswers()
	if len(got) != before+1 {
		b.t.Fatalf("@bot %s: %d answers taken, want one more than %d", query, len(got), before)
	}
	return got[len(got)-1]
}
