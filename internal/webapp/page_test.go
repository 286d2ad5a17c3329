package webapp_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/webapp"
)

// maxPageGzip is the page's weight budget: everything it loads from the
// bot, gzipped, as served.
const maxPageGzip = 150 << 10

// TestTheChartLibraryIsEmbedded fails a build that left it out, loudly:
// make fetches it (make webapp-assets).
func TestTheChartLibraryIsEmbedded(t *testing.T) {
	b, err := os.ReadFile("page/" + webapp.ChartFile)
	if err != nil || len(b) == 0 {
		t.Fatalf("page/%s is missing: run make webapp-assets (npm ci in tools/webapp), which every make target that builds or tests does", webapp.ChartFile)
	}
	if !strings.Contains(string(b[:200]), "Lightweight Charts") {
		t.Fatalf("page/%s is not TradingView's lightweight-charts", webapp.ChartFile)
	}
}

func TestThePageWeighsUnderItsBudgetGzipped(t *testing.T) {
	f := newFixture(t)
	index := f.getGzip(t, "/app/")
	total := index
	body := f.get("/app/", "").Body.String()
	srcs := regexp.MustCompile(`(?:src|href)="(static/[^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(srcs) < 3 {
		t.Fatalf("the page loads %d of its own files, want its script, style and chart library", len(srcs))
	}
	for _, m := range srcs {
		total += f.getGzip(t, "/app/"+m[1])
	}
	t.Logf("the page weighs %d bytes gzipped (budget %d)", total, maxPageGzip)
	if total > maxPageGzip {
		t.Errorf("the page weighs %d bytes gzipped, over %d", total, maxPageGzip)
	}
}

// getGzip fetches path as a browser would, checks it is served gzipped
// and whole, and returns its size on the wire.
func (f *fixture) getGzip(t *testing.T, path string) int {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br")
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("%s: %d, encoding %q", path, w.Code, w.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		t.Fatal(err)
	}
	return int(w.Result().ContentLength)
}

func TestThePageIsServedWithItsPolicy(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		path, ctype string
		status      int
	}{
		{"/app/", "text/html", http.StatusOK},
		{"/app/static/app.js", "text/javascript", http.StatusOK},
		{"/app/static/app.css", "text/css", http.StatusOK},
		{"/app/static/lightweight-charts.js", "text/javascript", http.StatusOK},
		{"/app/static/index.html", "", http.StatusNotFound},
		{"/app/static/nosuch.js", "", http.StatusNotFound},
	} {
		w := f.get(tc.path, "")
		if w.Code != tc.status || !strings.HasPrefix(w.Header().Get("Content-Type"), tc.ctype) {
			t.Errorf("%s: %d %q", tc.path, w.Code, w.Header().Get("Content-Type"))
			continue
		}
		if tc.status != http.StatusOK {
			continue
		}
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' https://telegram.org;") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s: policy %q", tc.path, csp)
		}
		etag := w.Header().Get("ETag")
		r := httptest.NewRequest(http.MethodGet, tc.path, nil)
		r.Header.Set("If-None-Match", etag)
		w2 := httptest.NewRecorder()
		f.h.ServeHTTP(w2, r)
		if etag == "" || w2.Code != http.StatusNotModified {
			t.Errorf("%s: revalidation with %q answered %d", tc.path, etag, w2.Code)
		}
	}
}

func TestThePageLoadsNoThirdPartyButTelegram(t *testing.T) {
	body := newFixture(t).get("/app/", "").Body.String()
	for _, m := range regexp.MustCompile(`(?:src|href)="(https?:[^"]+)"`).FindAllStringSubmatch(body, -1) {
		if m[1] != "https://telegram.org/js/telegram-web-app.js" {
			t.Errorf("the page loads %s", m[1])
		}
	}
}
