package twentyq

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Settings of the model's thinking and output, for GEMINI_THINKING and
// GEMINI_MAX_OUTPUT_TOKENS.
const (
	thinkingAuto     = "auto"
	defaultMaxOutput = "1024"
	// proMinBudget is the least thinking 2.5 Pro allows: it cannot turn
	// thinking off.
	proMinBudget = 128
)

// thinkingFor is the thinking configuration for model under setting:
//
//	auto          by model: 2.5 Flash and Flash-Lite think not at all (budget 0),
//	              2.5 Pro as little as it may (128), Gemini 3 at level "low",
//	              older models are sent no configuration (they do not think)
//	off           budget 0
//	dynamic       budget -1: the model decides
//	<n>           a budget of n tokens
//	minimal, low, medium, high   a Gemini 3 thinking level
//
// A yes/no answer needs no thought; thinking tokens count against
// maxOutputTokens, so a model left to think by default can spend the whole
// budget and answer nothing (finishReason MAX_TOKENS).
func thinkingFor(model, setting string) (*thinkingConfig, error) {
	budget := func(n int) *thinkingConfig { return &thinkingConfig{ThinkingBudget: &n} }
	setting = strings.ToLower(strings.TrimSpace(setting))
	switch setting {
	case "", thinkingAuto:
		switch m := strings.ToLower(model); {
		case strings.HasPrefix(m, "gemini-3"):
			return &thinkingConfig{ThinkingLevel: "low"}, nil
		case strings.HasPrefix(m, "gemini-2.5-pro"):
			return budget(proMinBudget), nil
		case strings.HasPrefix(m, "gemini-2.5"):
			return budget(0), nil
		}
		return nil, nil
	case "off":
		return budget(0), nil
	case "dynamic":
		return budget(-1), nil
	case "minimal", "low", "medium", "high":
		return &thinkingConfig{ThinkingLevel: setting}, nil
	}
	n, err := strconv.Atoi(setting)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%s: %q is not auto, off, dynamic, a token budget or a thinking level", settingThinking, setting)
	}
	return budget(n), nil
}

// family is what a model family's thinking accepts
// (https://ai.google.dev/gemini-api/docs/thinking, .../gemini-3): anything
// else the API refuses with 400 INVALID_ARGUMENT on every question.
type family struct {
	prefix   string
	off      bool // a budget of 0
	min, max int  // a fixed budget's range; max 0: none known
	levels   []string
}

// families, the longer prefix first. A model of none (2.0, Gemma, a new
// family) is not checked: its limits are not known here.
var families = []family{
	{prefix: "gemini-2.5-pro", min: proMinBudget, max: 32768},
	{prefix: "gemini-2.5-flash-lite", off: true, min: 512, max: 24576},
	{prefix: "gemini-2.5", off: true, min: 1, max: 24576},
	// Gemini 3 cannot turn thinking off, takes a level, and takes a
	// budget only for compatibility. 3 Pro has no minimal or medium level;
	// 3.1 Pro added medium.
	{prefix: "gemini-3-pro", min: 1, levels: []string{"low", "high"}},
	{prefix: "gemini-3.1-pro", min: 1, levels: []string{"low", "medium", "high"}},
	{prefix: "gemini-3", min: 1, levels: []string{"minimal", "low", "medium", "high"}},
}

// checkFamily refuses at start a thinking configuration model's family
// always rejects, naming both settings and what the family accepts.
func checkFamily(model, setting string, tc *thinkingConfig) error {
	m := strings.ToLower(strings.TrimSpace(model))
	i := slices.IndexFunc(families, func(f family) bool { return strings.HasPrefix(m, f.prefix) })
	if i < 0 || tc == nil {
		return nil
	}
	f := families[i]
	ok := true
	switch b := tc.ThinkingBudget; {
	case tc.ThinkingLevel != "":
		ok = slices.Contains(f.levels, tc.ThinkingLevel)
	case *b == 0:
		ok = f.off
	case *b > 0:
		ok = *b >= f.min && (f.max == 0 || *b <= f.max)
	}
	if ok {
		return nil
	}
	return fmt.Errorf("%s=%s does not suit %s=%s, which accepts %s", settingThinking, strings.TrimSpace(setting), settingModel, model, f.accepts())
}

// accepts lists a family's values of GEMINI_THINKING.
func (f family) accepts() string {
	values := []string{thinkingAuto}
	if f.off {
		values = append(values, "off")
	}
	values = append(values, "dynamic")
	if f.max > 0 {
		values = append(values, fmt.Sprintf("a budget of %d to %d tokens", f.min, f.max))
	} else {
		values = append(values, "a budget of tokens")
	}
	if len(f.levels) > 0 {
		values = append(values, "a level: "+strings.Join(f.levels, ", "))
	}
	return strings.Join(values, "; ")
}

// maxOutputFor reads GEMINI_MAX_OUTPUT_TOKENS and checks that it leaves
// room for an answer after a fixed thinking budget.
func maxOutputFor(setting string, thinking *thinkingConfig) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(setting))
	if err != nil || n < 16 || n > 65536 {
		return 0, fmt.Errorf("%s: want a whole number of tokens from 16 to 65536", settingMaxOutput)
	}
	if thinking != nil && thinking.ThinkingBudget != nil && *thinking.ThinkingBudget >= n-16 {
		return 0, fmt.Errorf("%s (%d) must exceed the thinking budget of %s (%d) by at least 16 tokens for the answer",
			settingMaxOutput, n, settingThinking, *thinking.ThinkingBudget)
	}
	return n, nil
}
