// Package ssm reads SSM Parameter Store parameters with one call, GetParameters,
// signed with the SDK's SigV4 signer over net/http. It replaces the SDK's SSM
// client, whose package (with its generated schemas) made up most of the
// Lambda binary's avoidable cold-start init: start-up reads a handful of
// secrets once, and needs nothing else of the service.
package ssm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/pause"
)

// MaxNames is GetParameters' limit of names per call.
const MaxNames = 10

// retries bounds the tries of one call that the service throttled or failed.
const retries = 3

// Client calls GetParameters.
type Client struct {
	cfg      aws.Config
	endpoint string
	http     *http.Client
	signer   *v4.Signer
	now      func() time.Time
}

// New is a client for cfg's region, credentials and endpoint override
// (AWS_ENDPOINT_URL_SSM), as the SDK's own client would resolve them.
func New(ctx context.Context, cfg aws.Config) (*Client, error) {
	endpoint, ok := awsenv.ServiceEndpoint(ctx, cfg, "SSM")
	if !ok {
		if cfg.Region == "" {
			return nil, errors.New("ssm: no region")
		}
		endpoint = "https://ssm." + cfg.Region + ".amazonaws.com"
		if strings.HasPrefix(cfg.Region, "cn-") {
			endpoint += ".cn"
		}
	}
	return &Client{cfg: cfg, endpoint: strings.TrimRight(endpoint, "/") + "/",
		http: &http.Client{Timeout: 10 * time.Second}, signer: v4.NewSigner(), now: time.Now}, nil
}

// Result is what one GetParameters call answered.
type Result struct {
	Values  map[string]string // parameter name -> value (decrypted)
	Invalid []string          // names that do not exist (or that the caller may not read)
}

// Error is the service's refusal of a call: its type ("AccessDeniedException",
// "ThrottlingException", ...) and message.
type Error struct {
	Status  int
	Type    string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("ssm: %s (HTTP %d): %s", e.Type, e.Status, e.Message)
}

// retryable: the SDK's standard retryer retries these too.
func (e *Error) retryable() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests ||
		e.Type == "ThrottlingException" || e.Type == "InternalServerError"
}

// GetParameters reads up to MaxNames parameters, decrypting SecureStrings.
func (c *Client) GetParameters(ctx context.Context, names []string) (Result, error) {
	if len(names) > MaxNames {
		return Result{}, fmt.Errorf("ssm: %d names in one call, at most %d", len(names), MaxNames)
	}
	body, err := json.Marshal(struct {
		Names          []string
		WithDecryption bool
	}{names, true})
	if err != nil {
		return Result{}, err
	}
	for attempt := 1; ; attempt++ {
		res, err := c.call(ctx, body)
		var svc *Error
		if err == nil || !errors.As(err, &svc) || !svc.retryable() || attempt == retries {
			return res, err
		}
		if err := pause.For(ctx, pause.Backoff(attempt-1, 100*time.Millisecond, time.Second)); err != nil {
			return Result{}, fmt.Errorf("%w (after %w)", err, svc)
		}
	}
}

func (c *Client) call(ctx context.Context, body []byte) (Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return Result{}, fmt.Errorf("ssm: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AmazonSSM.GetParameters")
	creds, err := c.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("ssm: credentials: %w", err)
	}
	sum := sha256.Sum256(body)
	if err := c.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "ssm", c.cfg.Region, c.now()); err != nil {
		return Result{}, fmt.Errorf("ssm: sign: %w", err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("ssm: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return Result{}, fmt.Errorf("ssm: read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return Result{}, decodeError(resp.StatusCode, raw)
	}
	var out struct {
		Parameters []struct {
			Name, Value string
		}
		InvalidParameters []string
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return Result{}, fmt.Errorf("ssm: the answer is not GetParameters' (HTTP 200, %d bytes): %w", len(raw), err)
	}
	res := Result{Values: make(map[string]string, len(out.Parameters)), Invalid: out.InvalidParameters}
	for _, p := range out.Parameters {
		res.Values[p.Name] = p.Value
	}
	return res, nil
}

// decodeError reads the JSON protocol's error body: {"__type": "...",
// "message" or "Message": "..."}, the type sometimes namespaced
// ("com.amazonaws.ssm#ThrottlingException").
func decodeError(status int, raw []byte) error {
	var e struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		MessageU string `json:"Message"`
	}
	_ = json.Unmarshal(raw, &e)
	typ := e.Type
	if i := strings.LastIndexByte(typ, '#'); i >= 0 {
		typ = typ[i+1:]
	}
	if typ == "" {
		typ = http.StatusText(status)
	}
	msg := e.Message
	if msg == "" {
		msg = e.MessageU
	}
	return &Error{Status: status, Type: typ, Message: msg}
}
