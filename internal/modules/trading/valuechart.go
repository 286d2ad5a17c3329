package trading

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// statsKeyboard is a portfolio reply's keyboard: refresh, and the value
// chart when the market records values.
func (d *Desk) statsKeyboard(w app.Words, user int64) *models.InlineKeyboardMarkup {
	uid := strconv.FormatInt(user, 10)
	row := []app.Button{d.refreshButton(w, kindStats, uid)}
	if d.Values != nil {
		row = append(row, app.Button{Text: w.T("trading.chart_button"), Data: app.Data(d.Values.prefix(), uid)})
	}
	return app.MustKeyboard(row)
}

// A value chart's button: "<name>v:<user id>", its owner's only.
func (v *Values) prefix() string { return v.Name + "v:" }

// NoValuesYet answers a chart press before two days were recorded, in
// English; its key is noValuesYet.
const NoValuesYet = "Your portfolio's value is recorded once a day: the chart needs two days. Come back tomorrow."

const noValuesYet = "trading.chart.no_values_yet"

// Callback sends the presser's value chart as a new photo (a text message
// cannot become one); someone else's portfolio gets the usual toast.
func (v *Values) Callback() app.Callback {
	return app.Callback{Prefix: v.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		owner, err := strconv.ParseInt(strings.TrimPrefix(req.Data, v.prefix()), 10, 64)
		if err != nil {
			return req.Answer(ctx, req.T(app.StaleButton))
		}
		if mine, err := req.ActsFor(ctx, owner); err != nil {
			return err
		} else if !mine {
			return req.Answer(ctx, req.T(notYours))
		}
		pts, err := Points(ctx, v.Quotes.Store, owner)
		if err != nil {
			return err
		}
		if len(pts) < chart.MinPoints {
			return req.Answer(ctx, req.T(noValuesYet))
		}
		png, caption, err := v.draw(ctx, req.Words, pts)
		if err != nil {
			return err
		}
		_, err = v.Photos.SendPhoto(ctx, app.Photo{ChatID: req.ChatID, ThreadID: req.ThreadID, PNG: png, Name: "portfolio.png", Caption: caption})
		if text, ok := req.NoRightText(err); ok {
			return req.Answer(ctx, text)
		}
		return err
	}}
}

// draw is the chart of pts and its caption, in w's language.
func (v *Values) draw(ctx context.Context, w app.Words, pts []DayPoint) ([]byte, string, error) {
	in := chart.Portfolio{Money: v.ChartMoney(w.Lang), Offset: 7 * time.Hour, TimeFormat: TimeLayout(w.Lang, "Jan 02"),
		Words: chart.Words{Cash: w.T("trading.chart.cash"), Holdings: w.T("trading.chart.holdings"), Total: w.T("trading.chart.total")}}
	for _, p := range pts {
		day, err := time.ParseInLocation(time.DateOnly, p.Day, ICT)
		if err != nil {
			return nil, "", fmt.Errorf("%s values: day %q: %w", v.Name, p.Day, err)
		}
		in.Points = append(in.Points, chart.Point{T: day, Cash: p.Cash.InexactFloat64(), Holdings: p.Holdings.InexactFloat64(), Deposited: p.Deposited.InexactFloat64()})
	}
	last := pts[len(pts)-1]
	total := last.Cash.Add(last.Holdings)
	in.Title = w.T("trading.chart.value_title", app.Args{"Market": w.T("noun"), "Total": v.Cash(w.Lang, total)})
	png, err := v.Drawer.Draw(ctx, in)
	if err != nil {
		return nil, "", err
	}
	caption := w.T("trading.chart.value_caption", app.Args{"Title": in.Title, "Day": day(w.Lang, last.Day), "Deposited": v.Cash(w.Lang, last.Deposited),
		"Count": len(pts), "First": day(w.Lang, pts[0].Day)})
	return png, caption, nil
}

// day is a recorded day ("2026-12-07") as lang reads a date: English as
// recorded, Vietnamese 07/12/2026.
func day(lang app.Lang, d string) string {
	t, err := time.ParseInLocation(time.DateOnly, d, ICT)
	if err != nil || lang != locale.Vietnamese {
		return d
	}
	return locale.Date(lang, t)
}
