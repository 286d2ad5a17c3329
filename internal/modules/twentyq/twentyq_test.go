package twentyq

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
)

const apiKey = "AIza-test-key-never-logged"

// fakeGemini speaks generateContent: it checks the key header, decodes the
// request, and answers from the question, or with a scripted failure.
type fakeGemini struct {
	mu       sync.Mutex
	requests []generateRequest
	paths    []string
	fail     []int // status codes for the next calls
	reply    string
}

func (f *fakeGemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("x-goog-api-key") != apiKey {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`))
		return
	}
	var req generateRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Contents) != 1 {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}`))
		return
	}
	f.requests = append(f.requests, req)
	f.paths = append(f.paths, r.URL.Path)
	if len(f.fail) > 0 {
		code := f.fail[0]
		f.fail = f.fail[1:]
		w.WriteHeader(code)
		status := map[int]string{429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[code]
		_, _ = fmt.Fprintf(w, `{"error":{"code":%d,"message":"try later","status":%q}}`, code, status)
		return
	}
	q := strings.ToLower(req.Contents[0].Parts[0].Text)
	_, rest, _ := strings.Cut(req.SystemInstruction.Parts[0].Text, "The secret is: ")
	secret, _, _ := strings.Cut(rest, ". ")
	answer := "No"
	switch {
	case f.reply != "":
		answer = f.reply
	case strings.Contains(q, strings.TrimPrefix(secret, "a ")):
		answer = "Correct."
	case strings.Contains(q, "animal"):
		answer = "Yes."
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": answer}}}, "finishReason": "STOP"}},
		"usageMetadata": map[string]any{"promptTokenCount": 60, "candidatesTokenCount": 1},
	})
}

func setup(t *testing.T, settings map[string]string) (*apptest.Bot, *fakeGemini, *apptest.Clock) {
	f := &fakeGemini{}
	s := apptest.FakeAPIs(t, f, map[string]string{settingURL: ""})
	s[settingKey] = apiKey
	maps.Copy(s, settings)
	b, clk := apptest.NewModule(t, Factory, s)
	return b, f, clk
}

func TestWithoutAKeyTheGameSaysItIsUnavailable(t *testing.T) {
	b := apptest.New(t, []app.Factory{Factory})
	b.Expect(apptest.Group, apptest.User, "/twentyq is it alive?", unavailableText)
}

func TestAGameAgainstGemini(t *testing.T) {
	b, f, _ := setup(t, nil)
	// Every answer is "a cat", so the fake knows the secret.
	thingsBefore := things
	things = []string{"a cat"}
	t.Cleanup(func() { things = thingsBefore })

	steps := []apptest.Step{
		{"/twentyq_stats", "No finished game here yet."},
		{"/twentyq_giveup", "No game is running. Start one with /twentyq."},
		{"/twentyq", startText},
		{"/twentyq", "A game is running: ask with /twentyq <question>, or /twentyq_giveup."},
		{"/twentyq is it an animal?", "1/20 is it an animal?: Yes"},
		{"/twentyq is it bigger than a car?", "2/20 is it bigger than a car?: No"},
		{"/twentyq is it a cat?", "3/20 is it a cat?: Correct\nYou got it in 3: a cat!"},
		{"/twentyq_stats", "Played 1, won 1; 3.0 questions per win on average."},
		{"/twentyq does it purr?", startText + "\n1/20 does it purr?: No"},
		{"/twentyq_giveup", "It was: a cat."},
		{"/twentyq_stats", "Played 2, won 1; 3.0 questions per win on average."},
	}
	b.Converse(apptest.Group, apptest.User, steps)
	req := f.requests[0]
	if f.paths[0] != "/v1beta/models/gemini-2.5-flash:generateContent" || req.Contents[0].Role != "user" ||
		req.Contents[0].Parts[0].Text != "is it an animal?" || !strings.Contains(req.SystemInstruction.Parts[0].Text, "The secret is: a cat.") {
		t.Fatalf("request %s %+v", f.paths[0], req)
	}
}

func TestGeminiFailuresCostNoQuestion(t *testing.T) {
	b, f, _ := setup(t, nil)
	f.fail = []int{429, 503, 500}
	for _, want := range []string{"Gemini is busy right now", "Gemini did not answer", "Gemini did not answer"} {
		b.MustSay(apptest.Group, apptest.User, "/twentyq is it blue?")
		if !strings.Contains(b.Last(), want) {
			t.Fatalf("reply %q, want %q", b.Last(), want)
		}
	}
	b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", "1/20 is it blue?: No")
	if strings.Contains(b.Logs.String(), apiKey) {
		t.Fatal("the API key reached the logs")
	}
}

func TestAnOddReplyCountsAsUnknown(t *testing.T) {
	b, f, _ := setup(t, nil)
	f.reply = "Well, it depends on how you look at it."
	b.MustSay(apptest.Group, apptest.User, "/twentyq is it heavy?")
	if got := b.Last(); !strings.HasSuffix(got, "1/20 is it heavy?: Unknown") {
		t.Fatalf("reply %q", got)
	}
}

func TestThePerUserRateLimitProtectsTheKey(t *testing.T) {
	b, f, clk := setup(t, map[string]string{settingRate: "2"})
	for range 2 {
		b.MustSay(apptest.Group, apptest.User, "/twentyq is it red?")
	}
	b.MustSay(apptest.Group, apptest.User, "/twentyq is it red?")
	if b.Last() != "Slow down: too many questions this minute." || len(f.requests) != 2 {
		t.Fatalf("third question within a minute: %q (%d calls)", b.Last(), len(f.requests))
	}
	b.MustSay(apptest.Group, apptest.Admin, "/twentyq is it red?") // another user has their own budget
	if len(f.requests) != 3 {
		t.Fatal("the limit is per user")
	}
	clk.Add(30 * time.Second)
	b.MustSay(apptest.Group, apptest.User, "/twentyq is it red?")
	if len(f.requests) != 4 {
		t.Fatalf("after half a minute one more question is allowed: %q", b.Last())
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"Yes.": "Yes", "no": "No", "**Sometimes**": "Sometimes", "Correct!": "Correct", "UNKNOWN": "Unknown", "": "", "Maybe": ""} {
		if got, _ := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
