package chart_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
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

// series is a made-up day of 15-minute candles.
func series() chart.Series {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	s := chart.Series{Title: "BTC 1d", Money: chart.Format{Prefix: "$", Places: chart.Auto}, Offset: 7 * time.Hour, TimeFormat: "15:04", OHLC: true}
	for i := range 96 {
		c := 60000 + float64(i%13)*50
		s.Bars = append(s.Bars, chart.Bar{T: t0.Add(time.Duration(i) * 15 * time.Minute), O: c - 20, H: c + 60, L: c - 70, C: c})
	}
	return s
}

// The helper draws what the process would, byte for byte: the Lambda's
// charts are the container's.
func TestTheHelperDrawsTheSameBytesAsTheProcess(t *testing.T) {
	helper := filepath.Join(t.TempDir(), chart.HelperName)
	build := exec.Command("go", "build", "-o", helper, "github.com/miti99bot/miti99bot/cmd/chartrender")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the helper: %v\n%s", err, out)
	}
	s := series()
	got, err := chart.Exec{Path: helper}.Price(s)
	if err != nil {
		t.Fatal(err)
	}
	want, err := draw.Local{}.Price(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the helper drew %d bytes, the process %d, not the same", len(got), len(want))
	}
	if _, err := (chart.Exec{Path: helper}).Value(chart.Portfolio{}); err == nil {
		t.Fatal("the helper drew a value chart of no days; want its refusal")
	}
}

// A binary with neither a drawer nor the helper says so: it never sends
// an empty picture.
func TestNoHelperIsErrNoRenderer(t *testing.T) {
	missing := filepath.Join(t.TempDir(), chart.HelperName)
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("the helper exists")
	}
	if _, err := (chart.Exec{Path: missing}).Price(series()); !errors.Is(err, chart.ErrNoRenderer) {
		t.Fatalf("err = %v; want ErrNoRenderer", err)
	}
}

// The helper's cost per picture, process start included:
// go test -run '^$' -bench Helper ./internal/modules/trading/chart/
func BenchmarkHelper(b *testing.B) {
	helper := filepath.Join(b.TempDir(), chart.HelperName)
	if out, err := exec.Command("go", "build", "-o", helper, "github.com/miti99bot/miti99bot/cmd/chartrender").CombinedOutput(); err != nil {
		b.Fatalf("building the helper: %v\n%s", err, out)
	}
	s := series()
	for _, d := range []struct {
		name string
		d    chart.Drawer
	}{{"exec", chart.Exec{Path: helper}}, {"inprocess", draw.Local{}}} {
		b.Run(d.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := d.d.Price(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
