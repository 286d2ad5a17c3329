// Package lambdaevent routes the raw events cmd/lambda receives: Function
// URL requests become ordinary *http.Request values served by the bot's one
// HTTP handler, and EventBridge Scheduler invocations run a cron job through
// the shared dispatch.
//
// aws-lambda-go's lambdaurl package only serves RESPONSE_STREAM function
// URLs and one event type; this adapter buffers the response (the Function
// URL's default invoke mode) and accepts both event shapes on one function.
package lambdaevent

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"github.com/miti99bot/miti99bot/internal/cron"
)

// Handler answers invocations.
type Handler struct {
	// HTTP serves Function URL requests.
	HTTP http.Handler
	// Cron runs a scheduled job (cron.Dispatcher.Dispatch) and says what
	// the fire did: the outcome is the invocation's result, and an error
	// fails the invocation, so Lambda marks the job failed and the
	// Scheduler retries and finally dead-letters it.
	Cron func(ctx context.Context, name string, scheduled time.Time) (cron.Outcome, error)
	// Flush, when set, writes the invocation's metrics at its end.
	Flush func(ctx context.Context)
}

// SchedulerEvent is the input each EventBridge schedule sends:
// {"cron": "<name>", "scheduledTime": "<aws.scheduler.scheduled-time>"}.
type SchedulerEvent struct {
	Cron          string `json:"cron"`
	ScheduledTime string `json:"scheduledTime"`
}

// CronResult is a scheduler invocation's result: the job and what the fire
// did (ran, skipped: another fire has the slot, disabled: MODULES leaves
// its module out).
type CronResult struct {
	Cron    string       `json:"cron"`
	Outcome cron.Outcome `json:"outcome"`
}

// probe tells the two event shapes apart.
type probe struct {
	Cron           *string `json:"cron"`
	RequestContext *struct {
		HTTP *struct {
			Method string `json:"method"`
		} `json:"http"`
	} `json:"requestContext"`
}

// ErrUnknownEvent is returned for an event of neither shape.
var ErrUnknownEvent = errors.New("lambda: unrecognised event (want a Function URL request or a scheduler event)")

// Invoke is the Lambda handler. The invocation's metrics are flushed
// before it returns: Lambda may freeze the process right after.
func (h *Handler) Invoke(ctx context.Context, payload json.RawMessage) (any, error) {
	if h.Flush != nil {
		defer h.Flush(ctx)
	}
	return h.invoke(ctx, payload)
}

func (h *Handler) invoke(ctx context.Context, payload json.RawMessage) (any, error) {
	var p probe
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, fmt.Errorf("lambda: event is not JSON: %w", err)
	}
	switch {
	case p.Cron != nil:
		var ev SchedulerEvent
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, fmt.Errorf("lambda: scheduler event: %w", err)
		}
		scheduled, err := time.Parse(time.RFC3339, ev.ScheduledTime)
		if err != nil {
			return nil, fmt.Errorf("lambda: scheduler event %q: scheduledTime %q is not RFC 3339", ev.Cron, ev.ScheduledTime)
		}
		out, err := h.Cron(ctx, ev.Cron, scheduled)
		if err != nil {
			return nil, fmt.Errorf("lambda: cron %q: %w", ev.Cron, err)
		}
		return CronResult{Cron: ev.Cron, Outcome: out}, nil
	case p.RequestContext != nil && p.RequestContext.HTTP != nil:
		var req events.LambdaFunctionURLRequest
		if err := json.Unmarshal(payload, &req); err != nil {
			return nil, fmt.Errorf("lambda: function URL event: %w", err)
		}
		return h.serveURL(ctx, &req)
	}
	return nil, ErrUnknownEvent
}

// serveURL runs one Function URL request through the HTTP handler.
func (h *Handler) serveURL(ctx context.Context, ev *events.LambdaFunctionURLRequest) (events.LambdaFunctionURLResponse, error) {
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return events.LambdaFunctionURLResponse{StatusCode: http.StatusBadRequest, Body: "body is not base64"}, nil
		}
	}
	target := ev.RawPath
	if target == "" {
		target = "/"
	}
	if ev.RawQueryString != "" {
		target += "?" + ev.RawQueryString
	}
	req, err := http.NewRequestWithContext(ctx, ev.RequestContext.HTTP.Method, target, bytes.NewReader(body))
	if err != nil {
		return events.LambdaFunctionURLResponse{StatusCode: http.StatusBadRequest, Body: "bad request line"}, nil
	}
	for k, v := range ev.Headers {
		req.Header.Set(k, v) // Lambda joins repeated headers with commas already
	}
	if len(ev.Cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	req.Host = ev.RequestContext.DomainName
	req.RemoteAddr = ev.RequestContext.HTTP.SourceIP
	req.RequestURI = target
	req.ContentLength = int64(len(body))

	rec := httptest.NewRecorder()
	h.HTTP.ServeHTTP(rec, req)

	res := events.LambdaFunctionURLResponse{StatusCode: rec.Code, Headers: map[string]string{}}
	for k, v := range rec.Header() {
		res.Headers[strings.ToLower(k)] = strings.Join(v, ",")
	}
	if out := rec.Body.Bytes(); utf8.Valid(out) {
		res.Body = string(out)
	} else {
		res.Body, res.IsBase64Encoded = base64.StdEncoding.EncodeToString(out), true
	}
	return res, nil
}
