package twentyq

import (
	"fmt"
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
