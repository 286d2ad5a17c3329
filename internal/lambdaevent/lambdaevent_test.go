package lambdaevent_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/miti99bot/miti99bot/internal/lambdaevent"
)

// seen is what the HTTP handler received.
type seen struct {
	method, uri, host, secret, body string
}

func handler(got *seen) *lambdaevent.Handler {
	return &lambdaevent.Handler{
		HTTP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			*got = seen{r.Method, r.URL.RequestURI(), r.Host, r.Header.Get("X-Telegram-Bot-Api-Secret-Token"), string(b)}
			w.Header().Set("X-Answer", "yes")
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte("done"))
		}),
		Cron: func(_ context.Context, name string, at time.Time) error {
			if name == "broken" {
				return errors.New("job failed")
			}
			got.method, got.uri = "CRON", name+"@"+at.Format(time.RFC3339)
			return nil
		},
	}
}

func urlEvent(method, path, query, body string, b64 bool) json.RawMessage {
	ev := events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: path, RawQueryString: query, Body: body, IsBase64Encoded: b64,
		Headers: map[string]string{"x-telegram-bot-api-secret-token": "s3", "content-type": "application/json"},
		RequestContext: events.LambdaFunctionURLRequestContext{
			DomainName: "abc.lambda-url.ap-southeast-1.on.aws",
			HTTP:       events.LambdaFunctionURLRequestContextHTTPDescription{Method: method, Path: path, SourceIP: "1.2.3.4"},
		},
	}
	b, _ := json.Marshal(ev)
	return b
}

func TestAFunctionURLRequestIsServedByTheHTTPHandler(t *testing.T) {
	tests := []struct {
		name    string
		payload json.RawMessage
		want    seen
	}{
		{"plain body", urlEvent("POST", "/webhook", "a=1", `{"update_id":1}`, false),
			seen{"POST", "/webhook?a=1", "abc.lambda-url.ap-southeast-1.on.aws", "s3", `{"update_id":1}`}},
		{"base64 body", urlEvent("POST", "/webhook", "", base64.StdEncoding.EncodeToString([]byte(`{"update_id":2}`)), true),
			seen{"POST", "/webhook", "abc.lambda-url.ap-southeast-1.on.aws", "s3", `{"update_id":2}`}},
		{"empty path is the root", urlEvent("GET", "", "", "", false),
			seen{"GET", "/", "abc.lambda-url.ap-southeast-1.on.aws", "s3", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got seen
			out, err := handler(&got).Invoke(t.Context(), tt.payload)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("handler saw %+v, want %+v", got, tt.want)
			}
			res := out.(events.LambdaFunctionURLResponse)
			if res.StatusCode != 202 || res.Body != "done" || res.Headers["x-answer"] != "yes" || res.IsBase64Encoded {
				t.Fatalf("response = %+v", res)
			}
		})
	}
}

func TestASchedulerEventRunsItsJob(t *testing.T) {
	var got seen
	h := handler(&got)
	if _, err := h.Invoke(t.Context(), json.RawMessage(`{"cron":"daily","scheduledTime":"2026-11-29T01:00:00Z"}`)); err != nil {
		t.Fatal(err)
	}
	if got.uri != "daily@2026-11-29T01:00:00Z" {
		t.Fatalf("job ran as %q", got.uri)
	}
	for name, payload := range map[string]string{
		"a failing job fails the invocation (Scheduler retries)": `{"cron":"broken","scheduledTime":"2026-11-29T01:00:00Z"}`,
		"a bad scheduled time is an error":                       `{"cron":"daily","scheduledTime":"yesterday"}`,
		"an unknown event shape is an error":                     `{"detail-type":"Scheduled Event"}`,
		"a payload that is not JSON is an error":                 `nope`,
	} {
		if _, err := h.Invoke(t.Context(), json.RawMessage(payload)); err == nil {
			t.Errorf("%s: no error", name)
		} else if strings.Contains(name, "unknown") && !errors.Is(err, lambdaevent.ErrUnknownEvent) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
