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
	http             *http.Client
}

const geminiTimeout = 15 * time.Second

type part struct {
	Text string `json:"text"`
}

type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

type generateRequest struct {
	SystemInstruction *content  `json:"systemInstruction,omitempty"`
	Contents          []content `json:"contents"`
	GenerationConfig  struct {
		Temperature     float64 `json:"temperature"`
		MaxOutputTokens int     `json:"maxOutputTokens"`
	} `json:"generationConfig"`
}

type generateResponse struct {
	Candidates []struct {
		Content      content `json:"content"`
		FinishReason string  `json:"finishReason"`
	} `json:"candidates"`
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
)

// ask sends one question under system instructions and returns the text.
func (g *gemini) ask(ctx context.Context, system, question string) (string, error) {
	var req generateRequest
	req.SystemInstruction = &content{Parts: []part{{Text: system}}}
	req.Contents = []content{{Role: "user", Parts: []part{{Text: question}}}}
	req.GenerationConfig.MaxOutputTokens = 16
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
	case resp.StatusCode != http.StatusOK:
		msg := resp.Status
		if out.Error != nil {
			msg = out.Error.Status + ": " + out.Error.Message
		}
		return "", fmt.Errorf("%w: %s", errUnavailable, redact.String(msg, g.key))
	case len(out.Candidates) == 0 || len(out.Candidates[0].Content.Parts) == 0:
		return "", fmt.Errorf("%w: empty answer", errUnavailable)
	}
	var text strings.Builder
	for _, p := range out.Candidates[0].Content.Parts {
		text.WriteString(p.Text)
	}
	return strings.TrimSpace(text.String()), nil
}
