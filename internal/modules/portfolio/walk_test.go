package portfolio_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/portfolio"
)

// A Vietnamese reader opening the portfolio, in a private chat and in a
// group, with the Mini App's address set and without, reads no English.
func TestAVietnameseReaderWalksThePortfolioAndReadsNoEnglish(t *testing.T) {
	for _, appURL := range []string{"https://bot.example.org/app/", ""} {
		t.Run("APP_URL "+appURL, func(t *testing.T) {
			newBot := func(t *testing.T) *apptest.Bot {
				return apptest.New(t, []app.Factory{portfolio.Factory}, core.WithAppURL(func() string { return appURL }))
			}
			apptest.WalkReadsNoEnglish(t, newBot, "portfolio", nil, nil, nil)
		})
	}
}
