package trading

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

	"github.com/shopspring/decimal"
)

// Answers of a price source that are not failures of the source itself.
var (
	// ErrUnknown: the source does not know what was asked (HTTP 400/404).
	ErrUnknown = errors.New("unknown to the source")
	// ErrRefused: the source refused the credentials (HTTP 401/403).
	ErrRefused = errors.New("refused by the source")
)

// Call is one JSON request to a price source.
type Call struct {
	Method string      // GET when empty
	URL    string      // the whole URL, query included
	Bearer string      // sent as "Authorization: Bearer" when set
	Header http.Header // extra headers (some sources want a browser-like agent)
	Body   any         // JSON-encoded as the request body when set
}

// Do sends call and decodes the answer into dst, numbers as json.Number so
// prices never pass through float64. Anything but a 2xx JSON answer is an
// error; HTML or an empty body is a failure, not a price.
func Do(ctx context.Context, c *http.Client, call Call, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	var body io.Reader
	if call.Body != nil {
		b, err := json.Marshal(call.Body)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	method := call.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(ctx, method, call.URL, body)
	if err != nil {
		return err
	}
	if call.Header != nil {
		req.Header = call.Header.Clone()
	}
	req.Header.Set("Accept", "application/json")
	if call.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if call.Bearer != "" {
		req.Header.Set("Authorization", "Bearer "+call.Bearer)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusBadRequest, http.StatusNotFound:
		return ErrUnknown
	case http.StatusUnauthorized, http.StatusForbidden:
		return ErrRefused
	default:
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("not a JSON answer: %w", err)
	}
	return nil
}

// Positive parses a price (spaces around it aside) and refuses anything
// that is not a positive number.
func Positive(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || !d.IsPositive() {
		return decimal.Zero, fmt.Errorf("%w: %q", ErrPriceInvalid, s)
	}
	return d, nil
}
