package trading

import (
	"net/http"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

// ICT is the users' time zone (Vietnam, no daylight saving), fixed so the
// binary needs no tz database: charts label their times in it.
var ICT = time.FixedZone("ICT", 7*3600)

// HistoryAt is a history source whose base URL is a module setting (the
// same setting as the market's price source of that provider).
type HistoryAt struct {
	Setting string
	Build   func(c *http.Client, base string) HistorySource
}

// NewCharts builds a market's charts from its settings, the sources in
// order, drawn by dr; every base URL must pass CheckURL. The periods are
// every period, 7d without an argument; a market that draws fewer sets
// Periods after.
func NewCharts(d app.Deps, dr chart.Drawer, name, noun string, money chart.Format, sources ...HistoryAt) (*Charts, error) {
	c := &Charts{
		Store: d.Store, Log: d.Log, Now: d.Now, Photos: d.Photos(),
		Name: name, Noun: noun, Periods: AllPeriods, Default: Week, Money: money, Zone: ICT, Drawer: dr,
	}
	for _, s := range sources {
		base, err := CheckURL(s.Setting, d.Settings[s.Setting])
		if err != nil {
			return nil, err
		}
		c.Sources = append(c.Sources, s.Build(d.HTTP, base))
	}
	return c, nil
}
