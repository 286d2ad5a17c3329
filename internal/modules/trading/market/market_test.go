package market_test

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/coin"
	"github.com/miti99bot/miti99bot/internal/modules/gold"
	"github.com/miti99bot/miti99bot/internal/modules/stock"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
	"github.com/miti99bot/miti99bot/internal/modules/trading/market"
)

// Every market is built from its declaration alone: the same commands,
// jobs, questions, buttons, routes and inline answers under its own name,
// a market's own commands only added after them.
func TestEveryMarketIsTheKitsModuleUnderItsName(t *testing.T) {
	kit := []string{"price", "topup", "buy", "sell", "stats", "top", "alert", "alerts", "chart"}
	for _, f := range []app.Factory{coin.Factory(draw.New()), gold.Factory(draw.New()), stock.Factory(draw.New())} {
		t.Run(f.Name, func(t *testing.T) {
			settings := map[string]string{}
			for _, s := range f.Settings {
				settings[s.Name] = s.Default
			}
			m, err := f.New(app.Deps{Settings: settings})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range m.Commands {
				names = append(names, c.Name)
			}
			var want []string
			for _, verb := range kit {
				want = append(want, f.Name+"_"+verb)
			}
			if len(names) < len(want) || !slices.Equal(names[:len(want)], want) {
				t.Fatalf("commands %v; want the kit's %v first", names, want)
			}
			if !slices.Equal(f.Jobs, []string{f.Name + "_values", f.Name + "_alerts"}) || len(m.Crons) != 2 {
				t.Errorf("jobs %v, %d crons; want the values and alerts jobs", f.Jobs, len(m.Crons))
			}
			if len(m.Steps) != 2 || len(m.Callbacks) != 5 || len(m.Web) != 3 || len(m.Inline) != 2 || m.OnChatChange == nil || m.OnMemberLeft == nil {
				t.Errorf("steps %d, callbacks %d, web routes %d, inline %d: not the kit's whole module", len(m.Steps), len(m.Callbacks), len(m.Web), len(m.Inline))
			}
		})
	}
}

// A market's sources are checked where it is built: a setting that is no
// https URL (plain http only on loopback) is refused, for every market.
func TestAMarketRefusesASourceURLThatIsNotHTTPS(t *testing.T) {
	for _, f := range []app.Factory{coin.Factory(draw.New()), gold.Factory(draw.New()), stock.Factory(draw.New())} {
		for _, bad := range f.Settings {
			settings := map[string]string{}
			for _, s := range f.Settings {
				settings[s.Name] = s.Default
			}
			settings[bad.Name] = "http://example.com"
			if _, err := f.New(app.Deps{Settings: settings}); err == nil {
				t.Errorf("%s: %s over plain http accepted", f.Name, bad.Name)
			}
		}
	}
}

// A kit's charts are drawn over its own periods: a kit whose period
// without an argument is not one of them (or that has none) is refused
// where it is built, not found out at the first /<market>_chart.
func TestAKitWhoseChartPeriodIsNotOneOfItsPeriodsIsRefused(t *testing.T) {
	for name, periods := range map[string][]trading.Period{"no periods": nil, "another period": {trading.Day, trading.Month}} {
		k := &trading.Kit{Name: "coin", Range: trading.PriceRange{Min: decimal.NewFromInt(1), Max: decimal.NewFromInt(2)},
			Sources: func(trading.Sites) []trading.Source { return nil }, Periods: periods, Period: trading.Week}
		if _, err := market.Build(k, app.Deps{}, draw.New()); err == nil {
			t.Errorf("%s: a kit charting %s by default over %v was built", name, k.Period.Name, periods)
		}
	}
}
