package chart_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
)

func TestFormatWritesMoneyAsTheMarketsDo(t *testing.T) {
	usd, vnd := chart.Format{Prefix: "$", Places: chart.Auto}, chart.Format{Suffix: " VND"}
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
	}
	for _, tt := range tests {
		if got := tt.f.String(tt.v); got != tt.want {
			t.Errorf("%+v.String(%v) = %q; want %q", tt.f, tt.v, got, tt.want)
		}
	}
}
