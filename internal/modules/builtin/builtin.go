// Package builtin is the catalogue of modules shipped with the bot, in their
// default order. The runtimes pass it to the core; MODULES picks from it.
package builtin

import (
	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/coin"
	"github.com/miti99bot/miti99bot/internal/modules/gold"
	"github.com/miti99bot/miti99bot/internal/modules/loldle"
	"github.com/miti99bot/miti99bot/internal/modules/lolschedule"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/modules/remind"
	"github.com/miti99bot/miti99bot/internal/modules/stats"
	"github.com/miti99bot/miti99bot/internal/modules/stock"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
	"github.com/miti99bot/miti99bot/internal/modules/twentyq"
	"github.com/miti99bot/miti99bot/internal/modules/util"
	"github.com/miti99bot/miti99bot/internal/modules/wordle"
)

// Catalogue returns every built-in module factory, the markets drawing
// their charts in process (package draw) in both runtimes.
func Catalogue() []app.Factory {
	charts := draw.New()
	return append([]app.Factory{util.Factory, misc.Factory, remind.Factory, lolschedule.Factory, wordle.Factory, loldle.Factory, twentyq.Factory,
		coin.Factory(charts), gold.Factory(charts), stock.Factory(charts), stats.Factory}, extra...)
}
