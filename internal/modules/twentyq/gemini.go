package twentyq

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/redact"
)

// gemini calls generateContent over plain HTTP. The key travels in the
// x-goog-api-key header, never in the URL, so no URL in an error can carry it.
type gemini struct {
	base, model, key string
	thinking         *thinkingConfig // nil: send none (models that do not think)
	maxOutput        int
	http             *http.Client
}

const geminiTimeout = 15 * time.Second

type part struct {
	Text    string `json:"text"`
	Thought bool   `json:"thought,omitempty"` // a thought summary, not the answer
}

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// thinkingConfig is how much a thinking model may think. 2.5 models take a
// token budget (0 turns thinking off where the model allows it); Gemini 3
// models take a level. The API refuses both at once.
type thinkingConfig struct {
	ThinkingBudget *int   `json:"thinkingBudget,omitempty"`
	ThinkingLevel  string `json:"thinkingLevel,omitempty"`
}

type generationConfig struct {
	Temperature     float64         `json:"temperature"`
	MaxOutputTokens int             `json:"maxOutputTokens"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

type generateRequest struct {
	SystemInstruction *content         `json:"systemInstruction,omitempty"`
	Contents          []content        `json:"contents"`
	GenerationConfig  generationConfig `json:"generationConfig"`
}

type generateResponse struct {
	Candidates []struct {
		Content      content `json:"content"`
		FinishReason string  `json:"finishReason"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

// Errors the game tells apart.
var (
	errBusy        = errors.New("gemini: rate limited")
	errUnavailable = errors.New("gemini: unavailable")
	// errRefused: Gemini called the request itself invalid (400
	// INVALID_ARGUMENT: a thinking setting the model does not take, a bad
	// key). The bot's configuration is wrong; asking again fails the same.
	errRefused = errors.New("gemini: the request is invalid for the configured model")
)

// noAnswer: Gemini answered, but with no usable answer: the prompt was
// blocked, or generation stopped for another reason than a normal stop
// (safety, recitation, the token budget). Asking again would end the same
// way, so the player is told why, in words: the text "why.<reason>" in
// their language, with detail (Gemini's own word for it) where it has one.
type noAnswer struct{ reason, detail string }

func (e *noAnswer) Error() string {
	if e.detail != "" {
		return "gemini: no answer: " + e.reason + " (" + e.detail + ")"
	}
	return "gemini: no answer: " + e.reason
}

// stopReasons are Gemini's finishReason values the player is told in
// words (the text "why.<value in lower case>"); any other is "stopped".
// STOP, the normal end, is the only one that carries an answer.
var stopReasons = map[string]bool{
	"MAX_TOKENS": true, "SAFETY": true, "RECITATION": true, "LANGUAGE": true,
	"BLOCKLIST": true, "PROHIBITED_CONTENT": true, "SPII": true,
}

// ask sends one question under system instructions and returns the text.
func (g *gemini) ask(ctx context.Context, system, question string) (string, error) {
	req := generateRequest{
		SystemInstruction: &content{Parts: []part{{Text: system}}},
		Contents:          []content{{Role: "user", Parts: []part{{Text: question}}}},
		GenerationConfig:  generationConfig{MaxOutputTokens: g.maxOutput, ThinkingConfig: g.thinking},
	}
	body, _ := json.Marshal(req)

	ctx, cancel := context.WithTimeout(ctx, geminiTimeout)
	defer cancel()
	url := fmt.Sprintf("%s/v1beta/models/%s:generateContent", strings.TrimRight(g.base, "/"), g.model)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("x-goog-api-key", g.key)
	resp, err := g.http.Do(hreq)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errUnavailable, redact.Error(err, g.key))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var out generateResponse
	_ = json.Unmarshal(raw, &out)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return "", errBusy
	case resp.StatusCode == http.StatusBadRequest && out.Error != nil && out.Error.Status == "INVALID_ARGUMENT":
		return "", fmt.Errorf("%w: %s", errRefused, redact.String(out.Error.Message, g.key))
	case resp.StatusCode != http.StatusOK:
		msg := resp.Status
		if out.Error != nil {
			msg = out.Error.Status + ": " + out.Error.Message
		}
		return "", fmt.Errorf("%w: %s", errUnavailable, redact.String(msg, g.key))
	case out.PromptFeedback != nil && out.PromptFeedback.BlockReason != "":
		return "", &noAnswer{reason: "blocked", detail: strings.ToLower(out.PromptFeedback.BlockReason)}
	case len(out.Candidates) == 0:
		return "", fmt.Errorf("%w: no candidate", errUnavailable)
	}
	return answerOf(out.Candidates[0].Content, out.Candidates[0].FinishReason)
}

// answerOf reads a candidate: only a normal stop with text is an answer.
// A stop for any other reason is not, even with some text (a reply cut off
// by the token budget may start "Yes" and mean nothing).
func answerOf(c content, finish string) (string, error) {
	if finish != "" && finish != "STOP" {
		if !stopReasons[finish] {
			return "", &noAnswer{reason: "stopped", detail: strings.ToLower(finish)}
		}
		return "", &noAnswer{reason: strings.ToLower(finish)}
	}
	var text strings.Builder
	for _, p := range c.Parts {
		if !p.Thought {
			text.WriteString(p.Text)
		}
	}
	if strings.TrimSpace(text.String()) == "" {
		return "", fmt.Errorf("%w: empty answer", errUnavailable)
	}
	return strings.TrimSpace(text.String()), nil
}
