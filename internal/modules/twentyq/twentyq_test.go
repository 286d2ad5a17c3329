package twentyq

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
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
	raw      []byte // a recorded answer for the next call, served as is
	rawCode  int    // raw's HTTP status; 0: 200
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
	if f.raw != nil {
		if f.rawCode != 0 {
			w.WriteHeader(f.rawCode)
		}
		_, _ = w.Write(f.raw)
		f.raw, f.rawCode = nil, 0
		return
	}
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
	// Asked to answer in Vietnamese, it does, as Gemini would; it knows
	// a cat and an animal by their Vietnamese names too.
	vi := strings.Contains(req.SystemInstruction.Parts[0].Text, "in Vietnamese")
	_, viSecret, _ := strings.Cut(req.SystemInstruction.Parts[0].Text, "In Vietnamese it is: ")
	viSecret, _, _ = strings.Cut(viSecret, ".")
	answer := map[bool]string{false: "No", true: "Không."}[vi]
	switch {
	case f.reply != "":
		answer = f.reply
	case strings.Contains(q, strings.TrimPrefix(secret, "a ")) || vi && strings.Contains(q, viSecret):
		answer = map[bool]string{false: "Correct.", true: "Đoán đúng!"}[vi]
	case strings.Contains(q, "animal") || strings.Contains(q, "động vật"):
		answer = map[bool]string{false: "Yes.", true: "Có."}[vi]
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
		{"/twentyq", runningText},
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
	// 2.5 Flash thinks by default, against the same token budget as the
	// answer: the default turns thinking off and leaves room to spare.
	gc := req.GenerationConfig
	if gc.ThinkingConfig == nil || gc.ThinkingConfig.ThinkingBudget == nil || *gc.ThinkingConfig.ThinkingBudget != 0 || gc.MaxOutputTokens != 1024 {
		t.Fatalf("generationConfig %+v (thinking %+v): want thinkingBudget 0 and maxOutputTokens 1024", gc, gc.ThinkingConfig)
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
	for in, want := range map[string]string{
		"Yes.": "Yes", "no": "No", "**Sometimes**": "Sometimes", "Correct!": "Correct", "UNKNOWN": "Unknown", "": "", "Maybe": "",
		"Có.": "Yes", "không": "No", "Không rõ.": "Unknown", "**Đôi khi**": "Sometimes", "Đoán đúng!": "Correct", "Đúng": "",
	} {
		if got, _ := normalize(in, viWords()); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// recordedAnswer is a recorded generateContent answer from testdata.
func recordedAnswer(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGeminiAnswersThatAreNoAnswerCostNoQuestion(t *testing.T) {
	tests := []struct {
		file, reply string
	}{
		{"max_tokens_no_parts.json", "Gemini gave no answer: it ran out of its token budget. Your question was not counted; try asking it another way."},
		{"max_tokens_cut_off.json", "Gemini gave no answer: it ran out of its token budget. Your question was not counted; try asking it another way."},
		{"safety.json", "Gemini gave no answer: its safety filter stopped it. Your question was not counted; try asking it another way."},
		{"recitation.json", "Gemini gave no answer: its recitation filter stopped it. Your question was not counted; try asking it another way."},
		{"prompt_blocked.json", "Gemini gave no answer: it blocked the question (safety). Your question was not counted; try asking it another way."},
		{"empty_candidates.json", "Gemini did not answer; your question was not counted. Try again later."},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, f, _ := setup(t, nil)
			b.MustSay(apptest.Group, apptest.User, "/twentyq")
			f.raw = recordedAnswer(t, tt.file)
			b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", tt.reply)
			b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", "1/20 is it blue?: No")
		})
	}
}

func TestARecordedAnswerAfterThinkingIsRead(t *testing.T) {
	b, f, _ := setup(t, nil)
	b.MustSay(apptest.Group, apptest.User, "/twentyq")
	f.raw = recordedAnswer(t, "answer_with_thoughts.json")
	b.Expect(apptest.Group, apptest.User, "/twentyq is it blue?", "1/20 is it blue?: No")
}

func TestThinkingAndOutputBudgetsFollowTheModel(t *testing.T) {
	n := func(v int) *int { return &v }
	tests := []struct {
		model, thinking, maxOutput string
		wantBudget                 *int
		wantLevel                  string
		wantErr                    string
	}{
		{"gemini-2.5-flash", "auto", "1024", n(0), "", ""},
		{"gemini-2.5-flash-lite", "", "1024", n(0), "", ""},
		{"gemini-2.5-pro", "auto", "1024", n(128), "", ""},
		{"gemini-3-flash-preview", "auto", "1024", nil, "low", ""},
		{"gemini-2.0-flash", "auto", "1024", nil, "", ""},
		{"gemini-2.5-flash", "dynamic", "4096", n(-1), "", ""},
		{"gemini-2.5-flash", "512", "1024", n(512), "", ""},
		{"gemini-3-pro-preview", "HIGH", "4096", nil, "high", ""},
		{"gemini-2.5-flash", "lots", "1024", nil, "", "GEMINI_THINKING"},
		{"gemini-2.5-flash", "1024", "1024", nil, "", "must exceed the thinking budget"},
		{"gemini-2.5-flash", "auto", "NaN", nil, "", "GEMINI_MAX_OUTPUT_TOKENS"},
		{"gemini-2.5-flash", "auto", "8", nil, "", "GEMINI_MAX_OUTPUT_TOKENS"},
	}
	for _, tt := range tests {
		t.Run(tt.model+" "+tt.thinking+" "+tt.maxOutput, func(t *testing.T) {
			tc, err := thinkingFor(tt.model, tt.thinking)
			if err == nil {
				_, err = maxOutputFor(tt.maxOutput, tc)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.wantBudget == nil && tt.wantLevel == "" && tc != nil:
				t.Fatalf("config %+v, want none", tc)
			case tt.wantBudget != nil && (tc == nil || tc.ThinkingBudget == nil || *tc.ThinkingBudget != *tt.wantBudget):
				t.Fatalf("config %+v, want budget %d", tc, *tt.wantBudget)
			case tt.wantLevel != "" && (tc == nil || tc.ThinkingLevel != tt.wantLevel || tc.ThinkingBudget != nil):
				t.Fatalf("config %+v, want level %s alone", tc, tt.wantLevel)
			}
		})
	}
}

func TestARateThatIsNoNumberIsRefusedAtStartUp(t *testing.T) {
	for _, rate := range []string{"NaN", "+Inf", "0", "-1", "six"} {
		_, err := New(app.Deps{Settings: map[string]string{settingRate: rate, settingModel: "gemini-2.5-flash", settingMaxOutput: "1024"}})
		if err == nil || !strings.Contains(err.Error(), settingRate) {
			t.Errorf("%s=%s: %v, want an error naming the setting", settingRate, rate, err)
		}
	}
}

// A command whose reply Telegram refused (a 5xx) is delivered again: its
// move is made once, Gemini asked once, and the redelivery gets the reply
// the move earned.
func TestAMoveIsMadeOnceWhenTelegramDeliversItAgain(t *testing.T) {
	thingsBefore := things
	things = []string{"a cat"}
	t.Cleanup(func() { things = thingsBefore })
	tests := []struct {
		name, command, reply string
		asked                int // Gemini calls
		stats                string
	}{
		{"the question that wins", "/twentyq is it a cat?", startText + "\n1/20 is it a cat?: Correct\nYou got it in 1: a cat!", 1,
			"Played 1, won 1; 1.0 questions per win on average."},
		{"a start", "/twentyq", startText, 0, "No finished game here yet."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, _ := setup(t, nil)
			u := telegramtest.Text(apptest.Group, apptest.User, tt.command)
			b.Srv.FailNext("sendMessage", telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
			if err := b.Handle(u); err == nil {
				t.Fatal("the update whose reply failed was handled: Telegram would not deliver it again")
			}
			if err := b.Handle(u); err != nil {
				t.Fatalf("the redelivery: %v", err)
			}
			if got := b.Last(); got != tt.reply || len(f.requests) != tt.asked {
				t.Fatalf("the redelivery's reply: %q after %d Gemini calls\nwant: %q after %d", got, len(f.requests), tt.reply, tt.asked)
			}
			b.Expect(apptest.Group, apptest.User, "/twentyq_stats", tt.stats)
		})
	}
}

// A group upgraded to a supergroup keeps its results, as its game: they
// are the chat's state, which the engine moves.
func TestAnUpgradedGroupKeepsItsResults(t *testing.T) {
	const old, moved = apptest.Group, apptest.Group - 1_000_000_000_000
	b := apptest.New(t, []app.Factory{Factory})
	if err := b.Store.For(Name).PutJSON(t.Context(), resultsKey(old), results{Played: 3, Won: 2, Questions: 21}); err != nil {
		t.Fatal(err)
	}
	if err := b.App.ChatChanged(t.Context(), app.ChatChange{ChatID: old, MovedTo: moved}); err != nil {
		t.Fatal(err)
	}
	b.Expect(moved, apptest.User, "/twentyq_stats", "Played 3, won 2; 10.5 questions per win on average.")
}
