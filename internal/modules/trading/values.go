package trading

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Values records each portfolio's value once a day and draws it. A day's
// point is cash plus holdings at that day's prices (what selling would
// bring, as /<market>_stats counts them) and the deposits so far; it is
// stored under "value:<user id>", at most MaxValueDays of them, oldest
// dropped first.
type Values struct {
	*Desk  // the market: job "<name>_values", buttons "<name>v:"
	Photos app.Photos
	Drawer chart.Drawer
}

// MaxValueDays bounds a portfolio's daily values: a year of them.
const MaxValueDays = 366

// ValuesAt is when the daily job fires: 17:00 UTC, midnight in Vietnam,
// so a day's point closes the users' day.
const ValuesAt = "0 17 * * *"

// DayPoint is one day's value of a portfolio, money as exact decimals.
type DayPoint struct {
	Day       string          `json:"day"` // "2026-11-29", the users' (ICT) day it closes
	At        time.Time       `json:"at"`  // when it was recorded (a late run says so)
	Cash      decimal.Decimal `json:"cash"`
	Holdings  decimal.Decimal `json:"holdings"`
	Deposited decimal.Decimal `json:"deposited"`
}

func valueKey(user int64) string { return "value:" + strconv.FormatInt(user, 10) }

// closedDay is the ICT day the latest fire at or before slot closes: the
// run's slot, so a run caught up, retried or run by hand records its own
// day, not the clock's.
func closedDay(slot time.Time) string {
	fire := time.Date(slot.Year(), slot.Month(), slot.Day(), 17, 0, 0, 0, time.UTC)
	if slot.UTC().Before(fire) {
		fire = fire.AddDate(0, 0, -1)
	}
	return fire.Add(-time.Minute).In(ICT).Format(time.DateOnly)
}

// Cron is the daily job. The dispatch claims its slot once for every
// runtime; a run that fails half way is retried, and a portfolio that
// already has the day's point is left alone, so no day counts twice. A
// slot missed while no scheduler ran is caught up within CatchUp; a day
// no run reached stays a gap, never a made-up point.
func (v *Values) Cron() app.Cron {
	return app.Cron{Name: v.Name + "_values", Schedule: ValuesAt, Handler: v.record, CatchUp: 20 * time.Hour, Timeout: 5 * time.Minute}
}

func (v *Values) record(ctx context.Context, run app.CronRun) error {
	users, err := usersUnder(ctx, v.Quotes.Store, portfolioPrefix)
	if err != nil {
		return fmt.Errorf("%s values: %w", v.Name, err)
	}
	day := closedDay(run.Slot)
	var errs []error
	for _, user := range users {
		if err := v.recordOne(ctx, user, day); err != nil {
			errs = append(errs, fmt.Errorf("user %d: %w", user, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s values of %s: %w", v.Name, day, err)
	}
	return nil
}

// recordOne appends the day's point to one portfolio's series, under CAS.
func (v *Values) recordOne(ctx context.Context, user int64, day string) error {
	pts, err := Points(ctx, v.Quotes.Store, user)
	if err != nil {
		return err
	}
	if n := len(pts); n > 0 && pts[n-1].Day >= day {
		return nil // recorded already (a retry, or another runtime's run)
	}
	p, found, err := Load(ctx, v.Quotes.Store, user)
	if err != nil || !found {
		return err
	}
	val := p.Value(v.Market, v.Quotes.Known(ctx))
	pt := DayPoint{Day: day, At: v.Quotes.Now(), Cash: val.Cash, Holdings: val.Holdings, Deposited: p.Invested}
	return storage.UpdateJSON(ctx, v.Quotes.Store, valueKey(user), func(pts *[]DayPoint, _ bool) (bool, error) {
		if n := len(*pts); n > 0 && (*pts)[n-1].Day >= day {
			return false, nil
		}
		*pts = append(*pts, pt)
		if len(*pts) > MaxValueDays {
			*pts = append([]DayPoint(nil), (*pts)[len(*pts)-MaxValueDays:]...)
		}
		return true, nil
	})
}

// Points is a portfolio's recorded days, oldest first.
func Points(ctx context.Context, s storage.KVStore, user int64) ([]DayPoint, error) {
	var pts []DayPoint
	if err := s.GetJSON(ctx, valueKey(user), &pts); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	return pts, nil
}
