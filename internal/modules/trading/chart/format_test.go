package chart_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

func TestFormatWritesMoneyAsTheMarketsDo(t *testing.T) {
	usd, vnd := chart.Format{Prefix: "$", Places: chart.Auto, Currency: "USD"}, chart.Format{Suffix: " VND", Currency: "VND"}
	usdVi, vndVi := usd, vnd
	usdVi.Lang, vndVi.Lang = locale.Vietnamese, locale.Vietnamese
	tests := []struct {
		f    chart.Format
		v    float64
		want string
	}{
		{usd, 61234.6, "$61,235"},
		{usd, 3864.2, "$3,864"},
		{usd, 107.654, "$107.65"},
		{usd, 0.00001234, "$0.00001234"},
		{usd, -115.01, "-$115.01"},
		{usd, 0, "$0"},
		{vnd, 95123456.4, "95,123,456 VND"},
		{vnd, -400, "-400 VND"},
		{vnd, -0.2, "0 VND"},
		// A Vietnamese reader's: its marks, the symbol after the amount.
		{usdVi, 61234.6, "61.235\u00a0$"},
		{usdVi, 107.654, "107,65\u00a0$"},
		{usdVi, -115.01, "-115,01\u00a0$"},
		{vndVi, 95123456.4, "95.123.456\u00a0₫"},
		{vndVi, -0.2, "0\u00a0₫"},
	}
	for _, tt := range tests {
		if got := tt.f.String(tt.v); got != tt.want {
			t.Errorf("%+v.String(%v) = %q; want %q", tt.f, tt.v, got, tt.want)
		}
	}
}
