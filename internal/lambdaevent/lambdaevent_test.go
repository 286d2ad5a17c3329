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

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/lambdaevent"
)

// errJob is the failing job's error.
var errJob = errors.New("job failed")

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
		Cron: func(_ context.Context, name string, at time.Time) (cron.Outcome, error) {
			got.method, got.uri = "CRON", name+"@"+at.Format(time.RFC3339)
			switch name {
			case "broken":
				return "", errJob
			case "running elsewhere":
				return cron.Skipped, nil
			case "of a module left out":
				return cron.Disabled, nil
			}
			return cron.Ran, nil
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

func TestASchedulerEventReturnsWhatItsFireDid(t *testing.T) {
	tests := []struct {
		name, job string
		want      lambdaevent.CronResult
		err       error
	}{
		{"a job that ran says so", "daily", lambdaevent.CronResult{Cron: "daily", Outcome: cron.Ran}, nil},
		{"a slot another fire has is skipped", "running elsewhere", lambdaevent.CronResult{Cron: "running elsewhere", Outcome: cron.Skipped}, nil},
		{"a job of a module left out is disabled", "of a module left out", lambdaevent.CronResult{Cron: "of a module left out", Outcome: cron.Disabled}, nil},
		{"a failing job fails the invocation (Lambda marks it failed, Scheduler retries)", "broken", lambdaevent.CronResult{}, errJob},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got seen
			payload, _ := json.Marshal(lambdaevent.SchedulerEvent{Cron: tt.job, ScheduledTime: "2026-11-29T01:00:00Z"})
			out, err := handler(&got).Invoke(t.Context(), payload)
			if got.uri != tt.job+"@2026-11-29T01:00:00Z" {
				t.Fatalf("job ran as %q", got.uri)
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) || out != nil {
					t.Fatalf("Invoke = %v, %v; want the job's error", out, err)
				}
				return
			}
			if err != nil || out != tt.want {
				t.Fatalf("Invoke = %#v, %v; want %#v", out, err, tt.want)
			}
			// Lambda returns the result as JSON.
			if b, _ := json.Marshal(out); !strings.Contains(string(b), `"outcome":"`+string(tt.want.Outcome)+`"`) {
				t.Fatalf("result JSON %s", b)
			}
		})
	}
}

func TestABadEventIsAnError(t *testing.T) {
	h := handler(&seen{})
	for name, payload := range map[string]string{
		"a bad scheduled time":       `{"cron":"daily","scheduledTime":"yesterday"}`,
		"an unknown event shape":     `{"detail-type":"Scheduled Event"}`,
		"a payload that is not JSON": `nope`,
	} {
		if _, err := h.Invoke(t.Context(), json.RawMessage(payload)); err == nil {
			t.Errorf("%s: no error", name)
		} else if strings.Contains(name, "unknown") && !errors.Is(err, lambdaevent.ErrUnknownEvent) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
