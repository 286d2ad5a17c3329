package stock

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// Vietcap adjusts the bars before an ex-date: their prices in VND carry
// decimals, and the history is read as the source meant it, not refused.
func TestAVietcapBarAdjustedForADividendIsReadInVND(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "vci_gap_chart_ex_date.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(raw)
	}))
	t.Cleanup(srv.Close)
	now := time.Date(2026, 7, 25, 0, 0, 0, 0, time.UTC)
	h, err := vciHistory(srv.Client(), srv.URL).Bars(t.Context(), "VCB", trading.Week, now)
	if err != nil {
		t.Fatalf("the recorded answer across an ex-date: %v", err)
	}
	if len(h.Bars) != 3 || h.Bars[0].C != 54047.65 || h.Bars[0].O != 56328.56 || h.Bars[2].C != 54100 {
		t.Fatalf("bars %+v; want the three recorded ones, the adjusted close 54,047.65 VND first", h.Bars)
	}
}
