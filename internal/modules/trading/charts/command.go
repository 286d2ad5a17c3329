package charts

import (
	"context"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// A chart's buttons: "<name>c:<SYM>:<period>" draws sym over period in
// place of the pressed photo.
func (c *Charts) prefix() string { return c.Name + "c:" }

// keyboard is a row of the periods, the one shown marked.
func (c *Charts) keyboard(w app.Words, sym string, shown trading.Period) *models.InlineKeyboardMarkup {
	row := make([]app.Button, 0, len(c.Periods))
	for _, p := range c.Periods {
		label := p.Label(w)
		if p.Name == shown.Name {
			label = "• " + label
		}
		row = append(row, app.Button{Text: label, Data: app.Data(c.prefix(), sym, p.Name)})
	}
	// Symbols are checked by the commands; a test covers the longest.
	return app.MustKeyboard(row)
}

// Command is /<name>_chart <SYM> [period]: the symbol is read as
// ChartSymbol reads it; a market whose charts draw one symbol
// (Kit.ChartOnly: gold) takes the period alone.
func (c *Charts) Command() func(context.Context, *app.Request) error {
	return func(ctx context.Context, r *app.Request) error {
		args := strings.Fields(r.Args)
		options := trading.Names(c.Periods)
		usage := r.T("trading.chart.usage", app.Args{"Name": c.Name, "Periods": strings.Join(options, "|")})
		if c.ChartOnly != "" {
			usage = r.T("trading.chart.usage_only", app.Args{"Name": c.Name, "Periods": strings.Join(options, "|")})
			args = append([]string{c.ChartOnly}, args...)
		}
		if len(args) < 1 || len(args) > 2 {
			_, err := r.Reply(ctx, usage)
			return err
		}
		sym, ok := c.ChartSymbol(args[0])
		if !ok {
			_, err := r.Reply(ctx, r.T("not_symbol", app.Args{"Arg": app.Quote(args[0])}))
			return err
		}
		p, ok := trading.ParsePeriod(strings.Join(args[1:], ""), c.Periods, c.Period)
		if !ok {
			_, err := r.Reply(ctx, r.T("trading.chart.period", app.Args{"Periods": trading.PeriodNames(c.Periods, r.T("trading.or"))}))
			return err
		}
		pic, err := c.Picture(ctx, r.Words, sym, p)
		if err != nil {
			if text, ok := c.why(r.Words, err, sym, p); ok {
				_, err := r.Reply(ctx, text)
				return err
			}
			return err
		}
		_, err = c.Photos.SendPhoto(ctx, app.Photo{ChatID: r.ChatID, ThreadID: r.ThreadID, PNG: pic.PNG, Name: "chart.png", Caption: pic.Caption, Keyboard: c.keyboard(r.Words, sym, p)})
		if text, ok := r.NoRightText(err); ok {
			_, err := r.Reply(ctx, text)
			return err
		}
		return err
	}
}

// Callback switches a chart's period in place. Data is a client's: the
// symbol and period are checked as typed ones are, and anything else is
// the stale-button toast.
func (c *Charts) Callback() app.Callback {
	return app.Callback{Prefix: c.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		rawSym, rawPeriod, _ := strings.Cut(strings.TrimPrefix(req.Data, c.prefix()), ":")
		sym, okSym := c.ChartSymbol(rawSym)
		p, okPeriod := trading.ParsePeriod(rawPeriod, c.Periods, trading.Period{})
		if !okSym || !okPeriod || p.Name == "" {
			return req.Answer(ctx, req.T(app.StaleButton))
		}
		pic, err := c.Picture(ctx, req.Words, sym, p)
		if err != nil {
			if text, ok := c.why(req.Words, err, sym, p); ok {
				return req.Answer(ctx, text)
			}
			return err
		}
		kb := c.keyboard(req.Words, sym, p)
		if req.MessageID == 0 { // an inline message: nothing to edit, so a new photo
			_, err = c.Photos.SendPhoto(ctx, app.Photo{ChatID: req.ChatID, ThreadID: req.ThreadID, PNG: pic.PNG, Name: "chart.png", Caption: pic.Caption, Keyboard: kb})
		} else {
			err = c.Photos.EditPhoto(ctx, app.PhotoEdit{ChatID: req.ChatID, MessageID: req.MessageID, PNG: pic.PNG, Name: "chart.png", Caption: pic.Caption, Keyboard: kb})
		}
		if text, ok := req.NoRightText(err); ok {
			return req.Answer(ctx, text)
		}
		return err
	}}
}
