package trading

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// statsKeyboard is a portfolio reply's keyboard: refresh, and the value
// chart when the market records values.
func (d *Desk) statsKeyboard(user int64) *models.InlineKeyboardMarkup {
	uid := strconv.FormatInt(user, 10)
	row := []app.Button{{Text: "🔄 Refresh", Data: app.Data(d.prefix(), kindStats, uid)}}
	if d.Values != nil {
		row = append(row, app.Button{Text: "📈 Chart", Data: app.Data(d.Values.prefix(), uid)})
	}
	return app.MustKeyboard(row)
}

// A value chart's button: "<name>v:<user id>", its owner's only.
func (v *Values) prefix() string { return v.Name + "v:" }

// NoValuesYet answers a chart press before two days were recorded.
const NoValuesYet = "Your portfolio's value is recorded once a day: the chart needs two days. Come back tomorrow."

// Callback sends the presser's value chart as a new photo (a text message
// cannot become one); someone else's portfolio gets the usual toast.
func (v *Values) Callback() app.Callback {
	return app.Callback{Prefix: v.prefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		owner, err := strconv.ParseInt(strings.TrimPrefix(req.Data, v.prefix()), 10, 64)
		if err != nil {
			return req.Answer(ctx, app.StaleButtonToast)
		}
		if mine, err := req.ActsFor(ctx, owner); err != nil {
			return err
		} else if !mine {
			return req.Answer(ctx, NotYoursToast)
		}
		pts, err := v.Points(ctx, owner)
		if err != nil {
			return err
		}
		if len(pts) < chart.MinPoints {
			return req.Answer(ctx, NoValuesYet)
		}
		png, caption, err := v.draw(ctx, pts)
		if err != nil {
			return err
		}
		_, err = v.Photos.SendPhoto(ctx, app.Photo{ChatID: req.ChatID, ThreadID: req.ThreadID, PNG: png, Name: "portfolio.png", Caption: caption})
		if text, ok := app.NoRightText(err); ok {
			return req.Answer(ctx, text)
		}
		return err
	}}
}

// draw is the chart of pts and its caption.
func (v *Values) draw(ctx context.Context, pts []DayPoint) ([]byte, string, error) {
	in := chart.Portfolio{Money: v.Chart, Offset: 7 * time.Hour}
	for _, p := range pts {
		day, err := time.ParseInLocation(time.DateOnly, p.Day, ICT)
		if err != nil {
			return nil, "", fmt.Errorf("%s values: day %q: %w", v.Name, p.Day, err)
		}
		in.Points = append(in.Points, chart.Point{T: day, Cash: p.Cash.InexactFloat64(), Holdings: p.Holdings.InexactFloat64(), Deposited: p.Deposited.InexactFloat64()})
	}
	last := pts[len(pts)-1]
	total := last.Cash.Add(last.Holdings)
	in.Title = fmt.Sprintf("Your %s portfolio: %s", v.Name, v.Money(total))
	png, err := v.Drawer.Draw(ctx, in)
	if err != nil {
		return nil, "", err
	}
	caption := fmt.Sprintf("%s on %s (deposited %s)\n%d daily values from %s to %s, recorded at midnight ICT at that day's prices; a missing day is one the job did not run. A year is kept.",
		in.Title, last.Day, v.Money(last.Deposited), len(pts), pts[0].Day, last.Day)
	return png, caption, nil
}
