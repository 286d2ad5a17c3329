package sim

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/aws/aws-lambda-go/events"
)

// serve is one HTTP request to p as its runtime is reached from outside:
// the Function URL's event on Lambda, the container's port otherwise.
// path may carry a query; header names are given in canonical form.
func (p *proc) serve(method, path string, header map[string]string) (code int, body string) {
	if p.kind != rtLambda {
		req := httptest.NewRequest(method, path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		p.http.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	rawPath, query, _ := strings.Cut(path, "?")
	lower := make(map[string]string, len(header)) // a Function URL's event has its header names in lower case
	for k, v := range header {
		lower[strings.ToLower(k)] = v
	}
	ev := events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: rawPath, RawQueryString: query, Headers: lower,
		RequestContext: events.LambdaFunctionURLRequestContext{DomainName: "sim.lambda-url.ap-southeast-1.on.aws",
			HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{Method: method, Path: rawPath, SourceIP: "203.0.113.7"}},
	}
	raw, _ := json.Marshal(ev) // plain fields: cannot fail
	out, err := p.lambda.Invoke(context.Background(), raw)
	res, ok := out.(events.LambdaFunctionURLResponse)
	if err != nil || !ok {
		return http.StatusBadGateway, ""
	}
	if res.IsBase64Encoded {
		b, _ := base64.StdEncoding.DecodeString(res.Body)
		return res.StatusCode, string(b)
	}
	return res.StatusCode, res.Body
}
