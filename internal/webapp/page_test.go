package webapp_test

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/webapp"
)

// maxPageGzip is the page's weight budget: everything it loads from the
// bot, gzipped, as served.
const maxPageGzip = 150 << 10

// TestTheEmbeddedChartLibraryIsTheOneTheLockFilePins: the file the binary
// embeds is the one make webapp-assets copied and described, from the
// package tools/webapp/package-lock.json pins (a bumped lock file with a
// stale copy fails here).
func TestTheEmbeddedChartLibraryIsTheOneTheLockFilePins(t *testing.T) {
	b, err := os.ReadFile("page/" + webapp.ChartFile)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != webapp.Chart.SHA256 {
		t.Errorf("page/%s is not the file make webapp-assets copied: run it again", webapp.ChartFile)
	}
	var lock struct {
		Packages map[string]struct{ Version, Integrity string }
	}
	raw, err := os.ReadFile("../../tools/webapp/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		t.Fatal(err)
	}
	pinned := lock.Packages["node_modules/lightweight-charts"]
	if pinned.Integrity == "" || pinned.Version != webapp.Chart.Version || pinned.Integrity != webapp.Chart.Integrity {
		t.Errorf("the embedded chart library is %s (%s); package-lock.json pins %s (%s): run make webapp-assets",
			webapp.Chart.Version, webapp.Chart.Integrity, pinned.Version, pinned.Integrity)
	}
}

func TestThePageWeighsUnderItsBudgetGzipped(t *testing.T) {
	f := newFixture(t)
	index := f.getGzip(t, "/app/")
	total := index
	body := f.get("/app/", "").Body.String()
	srcs := regexp.MustCompile(`(?:src|href|content)="(static/[^"]+)"`).FindAllStringSubmatch(body, -1)
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
		if !regexp.MustCompile(`script-src 'self' ('sha256-[A-Za-z0-9+/=]{44}' )?https://telegram.org;`).MatchString(csp) || !strings.Contains(csp, "connect-src 'self'") {
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

// TestABuildWithoutMakeWebappAssetsStopsNamingIt: a fresh clone has
// neither the chart library nor the file that declares it (both are
// gitignored), and its go build must fail, telling what to run, rather
// than give a Mini App that cannot draw.
func TestABuildWithoutMakeWebappAssetsStopsNamingIt(t *testing.T) {
	for _, f := range []string{"chartlib_gen.go", "page/" + webapp.ChartFile} {
		if err := exec.Command("git", "check-ignore", "-q", f).Run(); err != nil {
			t.Errorf("%s is not gitignored (%v): a clone would carry a copy of third-party code", f, err)
		}
	}
	gen, err := filepath.Abs("chartlib_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"Replace":{`+strconv.Quote(gen)+`:""}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-overlay", overlay, ".").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "undefined: runMakeWebappAssets") {
		t.Errorf("without chartlib_gen.go, go build said %q (%v); want it to stop naming make webapp-assets", out, err)
	}
}

// TestStaticFilesAreNamedByTheirContentAndKeptForGood: the page asks for
// its script, style and chart library by hashed names, which a browser
// keeps for a year without asking again; the page itself is checked back.
func TestStaticFilesAreNamedByTheirContentAndKeptForGood(t *testing.T) {
	f := newFixture(t)
	index := f.get("/app/", "")
	if cc := index.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("the page is served with Cache-Control %q, want no-cache", cc)
	}
	srcs := regexp.MustCompile(`(?:src|href|content)="static/([^"]+)"`).FindAllStringSubmatch(index.Body.String(), -1)
	if len(srcs) != 4 {
		t.Fatalf("the page loads %d static files, want its two scripts, its style and the chart library", len(srcs))
	}
	hashed := regexp.MustCompile(`^[a-z-]+\.[0-9a-f]{16}\.(js|css)$`)
	for _, m := range srcs {
		if !hashed.MatchString(m[1]) {
			t.Errorf("the page loads static/%s, not named by its content", m[1])
			continue
		}
		w := f.get("/app/static/"+m[1], "")
		if w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("static/%s: %d, Cache-Control %q", m[1], w.Code, w.Header().Get("Cache-Control"))
		}
	}
}

// TestALargeAPIAnswerGoesGzipped: a portfolio's answer is gzipped for a
// client that takes it, and plain for one that does not.
func TestALargeAPIAnswerGoesGzipped(t *testing.T) {
	big := core.WebRoute{Module: "coin", WebRoute: app.WebRoute{Name: app.WebMe, Handler: func(context.Context, *app.WebRequest) (any, error) {
		return map[string]string{"trades": strings.Repeat("a trade, ", 1000)}, nil
	}}}
	f := newFixture(t, big)
	auth := "tma " + signed(token, 42, now)
	r := httptest.NewRequest(http.MethodGet, "/app/api/me", nil)
	r.Header.Set("Authorization", auth)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br")
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("%d, Content-Encoding %q, Vary %q; want a gzipped 200", w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	var me webapp.Me
	if err := json.NewDecoder(zr).Decode(&me); err != nil || me.User.ID != 42 {
		t.Fatalf("the gzipped answer reads %+v (%v)", me, err)
	}
	if plain := f.get("/app/api/me", auth); plain.Header().Get("Content-Encoding") != "" || !json.Valid(plain.Body.Bytes()) {
		t.Errorf("without Accept-Encoding: Content-Encoding %q", plain.Header().Get("Content-Encoding"))
	}
}

// TestThePagesInlineScriptIsAllowedByItsHash: the one inline script (which
// asks for the data first) runs under the page's policy, and nothing else
// inline would.
func TestThePagesInlineScriptIsAllowedByItsHash(t *testing.T) {
	w := newFixture(t).get("/app/", "")
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(w.Body.String(), -1)
	if len(scripts) != 1 || !strings.Contains(scripts[0][1], `fetch("api/me"`) {
		t.Fatalf("the page has %d inline scripts, want the one that asks for api/me", len(scripts))
	}
	sum := sha256.Sum256([]byte(scripts[0][1]))
	csp := w.Header().Get("Content-Security-Policy")
	if want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "' https://telegram.org;"; !strings.Contains(csp, want) {
		t.Errorf("the policy %q lacks %q", csp, want)
	}
	if scriptSrc := regexp.MustCompile(`script-src [^;]*`).FindString(csp); strings.Contains(scriptSrc, "unsafe-inline") {
		t.Errorf("the policy lets any inline script run: %q", csp)
	}
}
