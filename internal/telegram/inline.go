package telegram

import (
	"context"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// AnswerInline answers an inline query with article results, each a text
// message cut to Telegram's length the way a send is.
func (c *Client) AnswerInline(ctx context.Context, a app.InlineAnswer) error {
	p := InlineParams(a)
	_, err := call(ctx, c, "answerInlineQuery", 0, false, func(ctx context.Context) (bool, error) {
		return c.bot.AnswerInlineQuery(ctx, p)
	})
	return err
}

// InlineParams is the answerInlineQuery request for a.
func InlineParams(a app.InlineAnswer) *bot.AnswerInlineQueryParams {
	results := make([]models.InlineQueryResult, 0, len(a.Results))
	for _, r := range a.Results {
		text, mode := app.Fit(r.Text, r.ParseMode)
		content := &models.InputTextMessageContent{MessageText: text, ParseMode: mode}
		if r.NoPreview {
			content.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: bot.True()}
		}
		art := &models.InlineQueryResultArticle{ID: r.ID, Title: r.Title, Description: r.Description, InputMessageContent: content}
		if r.Keyboard != nil {
			art.ReplyMarkup = r.Keyboard
		}
		results = append(results, art)
	}
	return &bot.AnswerInlineQueryParams{
		InlineQueryID: a.QueryID, Results: results,
		CacheTime: int(a.CacheTime / time.Second), IsPersonal: a.Personal,
	}
}
