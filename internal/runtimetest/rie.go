package runtimetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/miti99bot/miti99bot/internal/testenv"
)

// RIE is the AWS Lambda Runtime Interface Emulator running one bootstrap.
// It handles one invocation at a time: invoke sequentially.
type RIE struct {
	*testenv.Process
	url string
}

// RIEBinary is the emulator, built by `make testservers`.
func RIEBinary(t testing.TB) string {
	bin := filepath.Join(RepoRoot(t), ".testservers", "bin", "aws-lambda-rie")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s missing: run `make testservers` (make test does)", bin)
	}
	return bin
}

// StartRIE runs bootstrap under the emulator with env, on loopback ports.
func StartRIE(t testing.TB, bootstrap string, env map[string]string) *RIE {
	t.Helper()
	invoke, runtimeAPI := testenv.FreePort(t), testenv.FreePort(t)
	p := testenv.Start(t, env, RIEBinary(t),
		"--runtime-interface-emulator-address", invoke,
		"--runtime-api-address", runtimeAPI,
		bootstrap)
	p.CheckLogs() // the bootstrap's lines; the emulator's own are not JSON
	r := &RIE{Process: p, url: "http://" + invoke + "/2015-03-31/functions/function/invocations"}
	WaitHTTP(t, "http://"+invoke+"/")
	return r
}

// Invoke sends one payload and returns the function's raw answer.
func (r *RIE) Invoke(ctx context.Context, payload any) ([]byte, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return out, fmt.Errorf("emulator answered %d: %s", resp.StatusCode, out)
	}
	return out, err
}

// InvokeURL sends a Function URL request and decodes the response.
func (r *RIE) InvokeURL(ctx context.Context, method, path string, headers map[string]string, body string) (events.LambdaFunctionURLResponse, error) {
	ev := URLEvent(method, path, headers, body)
	raw, err := r.Invoke(ctx, ev)
	if err != nil {
		return events.LambdaFunctionURLResponse{}, err
	}
	var res events.LambdaFunctionURLResponse
	if err := json.Unmarshal(raw, &res); err != nil || res.StatusCode == 0 {
		return res, fmt.Errorf("not a Function URL response: %s", raw)
	}
	return res, nil
}

// URLEvent builds a Function URL request event as Lambda delivers it.
func URLEvent(method, path string, headers map[string]string, body string) events.LambdaFunctionURLRequest {
	h := map[string]string{}
	for k, v := range headers {
		h[http.CanonicalHeaderKey(k)] = v
	}
	rawPath, query, _ := strings.Cut(path, "?")
	return events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: rawPath, RawQueryString: query, Headers: h, Body: body,
		RequestContext: events.LambdaFunctionURLRequestContext{
			DomainName: "test.lambda-url.ap-southeast-1.on.aws",
			HTTP:       events.LambdaFunctionURLRequestContextHTTPDescription{Method: method, Path: rawPath, SourceIP: "127.0.0.1"},
		},
	}
}
