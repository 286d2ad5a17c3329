package config_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/config"
)

// fakeSSM speaks SSM's JSON 1.1 protocol for GetParameters.
type fakeSSM struct {
	mu     sync.Mutex
	params map[string]string
	calls  []ssmRequest
}

type ssmRequest struct {
	Names          []string
	WithDecryption bool
}

func newFakeSSM(t *testing.T, params map[string]string) (*fakeSSM, string) {
	f := &fakeSSM{params: params}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") != "AmazonSSM.GetParameters" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"__type":"UnknownOperationException"}`))
			return
		}
		var req ssmRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.calls = append(f.calls, req)
		f.mu.Unlock()
		type param struct{ Name, Type, Value string }
		out := struct {
			Parameters        []param
			InvalidParameters []string
		}{Parameters: []param{}, InvalidParameters: []string{}}
		for _, n := range req.Names {
			if v, ok := f.params[n]; ok {
				out.Parameters = append(out.Parameters, param{Name: n, Type: "SecureString", Value: v})
			} else {
				out.InvalidParameters = append(out.InvalidParameters, n)
			}
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return f, srv.URL
}

// useFakeSSM points the SDK's standard configuration at the fake.
func useFakeSSM(t *testing.T, url string) {
	t.Setenv("AWS_ENDPOINT_URL_SSM", url)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

func TestSecretsComeFromSSMWhenAParameterIsNamed(t *testing.T) {
	fake, url := newFakeSSM(t, map[string]string{
		"/miti99bot/prod/token":  "123:from-ssm",
		"/miti99bot/prod/gemini": "gem-from-ssm",
	})
	useFakeSSM(t, url)
	c, err := config.Load(t.Context(), config.Options{
		Getenv: envOf(map[string]string{
			"TELEGRAM_BOT_TOKEN_PARAMETER_NAME": "/miti99bot/prod/token",
			"GEMINI_API_KEY_PARAMETER_NAME":     "/miti99bot/prod/gemini",
			"CRON_SHARED_SECRET":                "plain-cron",
		}),
		Settings: []app.Setting{{Name: "GEMINI_API_KEY", Secret: true}},
		AWS:      awsenv.Lambda(os.Getenv),
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.TelegramToken.Reveal() != "123:from-ssm" || c.ModuleSettings()["GEMINI_API_KEY"] != "gem-from-ssm" || c.CronSecret.Reveal() != "plain-cron" {
		t.Fatalf("secrets: token %q gemini %q cron %q", c.TelegramToken.Reveal(), c.ModuleSettings()["GEMINI_API_KEY"], c.CronSecret.Reveal())
	}
	if len(fake.calls) != 1 || !fake.calls[0].WithDecryption || len(fake.calls[0].Names) != 2 {
		t.Fatalf("SSM calls = %+v, want one GetParameters with decryption for both", fake.calls)
	}
}

func TestAMissingParameterOrADoubleSourceIsAnError(t *testing.T) {
	_, url := newFakeSSM(t, nil)
	useFakeSSM(t, url)
	_, err := config.Load(t.Context(), config.Options{Getenv: envOf(map[string]string{
		"MONGO_URL_PARAMETER_NAME":          "/nope",
		"CRON_SHARED_SECRET":                "x",
		"CRON_SHARED_SECRET_PARAMETER_NAME": "/cron",
	}), AWS: awsenv.Lambda(os.Getenv)})
	if err == nil || !strings.Contains(err.Error(), `parameter "/nope" (for MONGO_URL) does not exist`) ||
		!strings.Contains(err.Error(), "CRON_SHARED_SECRET and CRON_SHARED_SECRET_PARAMETER_NAME are both set") {
		t.Fatalf("Load = %v", err)
	}
}

// refusingAWS fails the test if anything asks it.
func refusingAWS(t *testing.T) awsenv.Source {
	return func(context.Context) (aws.Config, error) {
		t.Fatal("the AWS configuration was loaded although no *_PARAMETER_NAME is set")
		return aws.Config{}, nil
	}
}

func TestWithoutParameterNamesNoAWSCallIsMade(t *testing.T) {
	_, err := config.Load(t.Context(), config.Options{
		Getenv: envOf(map[string]string{"TELEGRAM_BOT_TOKEN": "1:x", "MONGO_URL": "mongodb://h", "MONGO_DATABASE": "d"}),
		AWS:    refusingAWS(t),
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAnUnreachableSSMFailsClearly(t *testing.T) {
	useFakeSSM(t, "http://127.0.0.1:1")
	_, err := config.Load(t.Context(), config.Options{Getenv: envOf(map[string]string{"TELEGRAM_BOT_TOKEN_PARAMETER_NAME": "/t"}), AWS: awsenv.Lambda(os.Getenv)})
	if err == nil || !strings.Contains(err.Error(), "SSM: GetParameters /t") {
		t.Fatalf("Load = %v", err)
	}
}
