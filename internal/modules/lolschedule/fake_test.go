package lolschedule_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeAPI serves getSchedule like the LoL esports persisted gateway: pages of
// events linked by older/newer tokens, the current page when no pageToken is
// given, 403 without the right x-api-key, and scripted failures.
type fakeAPI struct {
	mu      sync.Mutex
	pages   []fakePage
	current int
	calls   int
	failing int // > 0: answer 503 that many times; < 0: always; 0: never
	srv     *httptest.Server
}

type fakePage struct {
	token  string
	events []map[string]any
}

const apiKey = "test-api-key"

func newFakeAPI(t testing.TB) *fakeAPI {
	f := &fakeAPI{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL + "/persisted/gw" }

func (f *fakeAPI) Calls() int { f.mu.Lock(); defer f.mu.Unlock(); return f.calls }

// Fail makes the API answer 503: n times, or always with n < 0, or never with 0.
func (f *fakeAPI) Fail(n int) { f.mu.Lock(); defer f.mu.Unlock(); f.failing = n }

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/persisted/gw/getSchedule" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if r.Header.Get("x-api-key") != apiKey {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"message":"Forbidden"}`))
		return
	}
	if f.failing != 0 {
		if f.failing > 0 {
			f.failing--
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message":"Service Unavailable"}`))
		return
	}
	idx := f.current
	if tok := r.URL.Query().Get("pageToken"); tok != "" {
		idx = -1
		for i, p := range f.pages {
			if p.token == tok {
				idx = i
			}
		}
		if idx < 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"message":"invalid pageToken"}]}`))
			return
		}
	}
	pages := map[string]any{"older": nil, "newer": nil}
	if idx > 0 {
		pages["older"] = f.pages[idx-1].token
	}
	if idx < len(f.pages)-1 {
		pages["newer"] = f.pages[idx+1].token
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"data": map[string]any{"schedule": map[string]any{"pages": pages, "events": f.pages[idx].events}},
	})
}

// event builds one event document the way the API sends it.
func event(start, state, league, a, b string, winsA, winsB, bestOf int) map[string]any {
	result := func(w, other int) map[string]any {
		outcome := any(nil)
		if state == "completed" {
			outcome = map[bool]string{true: "win", false: "loss"}[w > other]
		}
		return map[string]any{"outcome": outcome, "gameWins": w}
	}
	return map[string]any{
		"startTime": start, "state": state, "type": "match", "blockName": "Week 5",
		"league": map[string]any{"name": league, "slug": league},
		"match": map[string]any{
			"id":    start + a + b,
			"flags": []string{"hasVod"},
			"teams": []any{
				map[string]any{"name": a + " Esports", "code": a, "image": "http://static.example/" + a + ".png", "result": result(winsA, winsB), "record": map[string]int{"wins": 3, "losses": 1}},
				map[string]any{"name": b + " Gaming", "code": b, "image": "http://static.example/" + b + ".png", "result": result(winsB, winsA), "record": map[string]int{"wins": 1, "losses": 3}},
			},
			"strategy": map[string]any{"type": "bestOf", "count": bestOf},
		},
	}
}

// now is Wednesday 25/11/2026, 10:00 in Vietnam.
var now = time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)

// seed lays out four pages around now; the third is current. The tokens
// hold "/" as real ones (base64) can.
func seed(f *fakeAPI) {
	f.pages = []fakePage{
		{token: "b2xkZXI6Oj/E2MA==", events: []map[string]any{
			event("2026-11-19T09:00:00Z", "completed", "LCK", "DK", "KT", 2, 0, 3),
		}},
		{token: "b2xkZXI6Oj/E2MQ==", events: []map[string]any{
			event("2026-11-22T09:00:00Z", "completed", "LCK", "DRX", "NS", 0, 2, 3),
			event("2026-11-23T09:00:00Z", "completed", "LEC", "G2", "FNC", 1, 2, 3),
		}},
		{token: "Y3VycmVudDo/6MTYy", events: []map[string]any{
			{"startTime": "2026-11-24T12:00:00Z", "state": "completed", "type": "show", "blockName": "Show", "league": map[string]any{"name": "LCK", "slug": "lck"}},
			event("2026-11-24T16:00:00Z", "completed", "LCK", "KT", "BRO", 2, 1, 3), // 23:00 on the 24th
			event("2026-11-24T18:00:00Z", "unstarted", "LCK", "HLE", "KT", 0, 0, 3), // 01:00 on the 25th
			event("2026-11-25T08:00:00Z", "completed", "LCK", "T1", "GEN", 2, 1, 3),
			event("2026-11-25T10:00:00Z", "inProgress", "LPL", "BLG", "JDG", 1, 0, 5),
			event("2026-11-25T17:30:00Z", "unstarted", "LCK", "DK", "T1", 0, 0, 3), // 00:30 on the 26th
		}},
		{token: "bmV3ZXI6O/jE2Mw==", events: []map[string]any{
			event("2026-11-25T17:30:00Z", "unstarted", "LCK", "DK", "T1", 0, 0, 3), // pages overlap
			event("2026-11-29T16:00:00Z", "unstarted", "LEC", "G2", "MKOI", 0, 0, 1),
			event("2026-11-29T17:30:00Z", "unstarted", "LEC", "FNC", "KC", 0, 0, 1), // Monday 30th in Vietnam
		}},
	}
	f.current = 2
}
