package ssm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/ssm"
)

// answer replays recorded answers in order (the last one for ever).
func answer(t *testing.T, seen func(*http.Request, []byte), answers ...[2]string) string {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		if seen != nil {
			seen(r, body)
		}
		a := answers[min(int(n.Add(1))-1, len(answers)-1)]
		status := http.StatusOK
		if a[0] != "200" {
			status = http.StatusBadRequest
			if a[0] == "502" {
				status = http.StatusBadGateway
			}
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(a[1]))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func recorded(t *testing.T, name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func client(t *testing.T, url string) *ssm.Client {
	env := map[string]string{
		"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret",
		"AWS_SESSION_TOKEN": "session-token", "AWS_ENDPOINT_URL_SSM": url,
	}
	cfg, err := awsenv.Lambda(func(k string) string { return env[k] })(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssm.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGetParametersIsOneSignedCallThatReadsTheRecordedAnswer(t *testing.T) {
	var req *http.Request
	var body []byte
	url := answer(t, func(r *http.Request, b []byte) { req, body = r, b }, [2]string{"200", recorded(t, "get-parameters.json")})
	res, err := client(t, url).GetParameters(t.Context(), []string{"MyStringParameter", "MyStringListParameter", "MyInvalidParameterName"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Values["MyStringParameter"] != "Vici" || res.Values["MyStringListParameter"] != "alpha,beta,gamma" || len(res.Values) != 2 {
		t.Errorf("values %v", res.Values)
	}
	if len(res.Invalid) != 1 || res.Invalid[0] != "MyInvalidParameterName" {
		t.Errorf("invalid %v", res.Invalid)
	}
	if got := req.Header.Get("X-Amz-Target"); got != "AmazonSSM.GetParameters" {
		t.Errorf("X-Amz-Target %q", got)
	}
	auth := req.Header.Get("Authorization")
	if !regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{8}/us-east-1/ssm/aws4_request, SignedHeaders=\S*x-amz-target\S*, Signature=[0-9a-f]{64}$`).MatchString(auth) {
		t.Errorf("Authorization %q is not a SigV4 signature for ssm in us-east-1 covering the target", auth)
	}
	if req.Header.Get("X-Amz-Security-Token") != "session-token" || req.Header.Get("X-Amz-Date") == "" {
		t.Errorf("the session token or the signing date is missing: %v", req.Header)
	}
	var sent struct {
		Names          []string
		WithDecryption bool
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent.Names) != 3 || !sent.WithDecryption {
		t.Errorf("request body %s (%v): want the three names with decryption", body, err)
	}
}

func TestGetParametersAnswersTheServicesRefusals(t *testing.T) {
	cases := []struct {
		name     string
		answers  [][2]string
		wantType string
		wantErr  bool
		calls    int32
	}{
		{"a throttled call is tried again and succeeds", [][2]string{{"400", recorded(t, "throttling.json")}, {"200", recorded(t, "get-parameters.json")}}, "", false, 2},
		{"a call throttled every time gives up after three tries", [][2]string{{"400", recorded(t, "throttling.json")}}, "ThrottlingException", true, 3},
		{"access denied is not tried again, and says which type", [][2]string{{"400", recorded(t, "access-denied.json")}}, "AccessDeniedException", true, 1},
		{"a gateway's HTML page is a clear error", [][2]string{{"502", "<html>Bad Gateway</html>"}}, "Bad Gateway", true, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			url := answer(t, func(*http.Request, []byte) { calls.Add(1) }, c.answers...)
			_, err := client(t, url).GetParameters(t.Context(), []string{"/p"})
			var svc *ssm.Error
			switch {
			case !c.wantErr && err != nil:
				t.Fatalf("err %v", err)
			case c.wantErr && (!errors.As(err, &svc) || svc.Type != c.wantType):
				t.Fatalf("err %v, want an *ssm.Error of type %s", err, c.wantType)
			}
			if calls.Load() != c.calls {
				t.Errorf("%d calls, want %d", calls.Load(), c.calls)
			}
		})
	}
}

func TestAnAnswerThatIsNotGetParametersIsAnErrorNotAnEmptyResult(t *testing.T) {
	url := answer(t, nil, [2]string{"200", `{"Parameters": "truncated`})
	if _, err := client(t, url).GetParameters(t.Context(), []string{"/p"}); err == nil || !strings.Contains(err.Error(), "not GetParameters'") {
		t.Fatalf("err %v", err)
	}
}

func TestTheEndpointIsTheRegionsUnlessOverridden(t *testing.T) {
	for region, want := range map[string]string{"us-east-1": "ssm.us-east-1.amazonaws.com", "cn-north-1": "ssm.cn-north-1.amazonaws.com.cn"} {
		c, err := ssm.New(context.Background(), aws.Config{Region: region, Credentials: aws.AnonymousCredentials{}})
		if err != nil {
			t.Fatal(err)
		}
		if host := ssm.Endpoint(c); host != "https://"+want+"/" {
			t.Errorf("%s: endpoint %q, want %q", region, host, want)
		}
	}
}
