package telegramtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// readParams decodes a Bot API request the three ways Telegram accepts it:
// query string, application/json, form-urlencoded or multipart/form-data;
// a multipart body's uploads come back as files, by field name.
func readParams(r *http.Request) (params map[string]string, files map[string][]byte, err error) {
	params, err = readFields(r)
	if err != nil || r.MultipartForm == nil {
		return params, nil, err
	}
	files, err = uploads(r.MultipartForm)
	return params, files, err
}

func readFields(r *http.Request) (map[string]string, error) {
	params := map[string]string{}
	for k, v := range r.URL.Query() {
		params[k] = v[0]
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		var body map[string]json.RawMessage
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		if len(data) == 0 {
			return params, nil
		}
		if err := json.Unmarshal(data, &body); err != nil {
			return nil, fmt.Errorf("can't parse JSON: %w", err)
		}
		for k, raw := range body {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				params[k] = s
			} else {
				params[k] = string(raw)
			}
		}
	case "multipart/form-data":
		// go-telegram/bot sends a parameterless call (getMe) as an empty
		// multipart body, which Telegram accepts.
		if err := r.ParseMultipartForm(10 << 20); err != nil {
			if errors.Is(err, io.EOF) || strings.Contains(err.Error(), "EOF") {
				return params, nil
			}
			return nil, err
		}
		for k, v := range r.MultipartForm.Value {
			params[k] = v[0]
		}
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return nil, err
		}
		for k, v := range r.PostForm {
			params[k] = v[0]
		}
	}
	return params, nil
}

func writeOK(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func writeFailure(w http.ResponseWriter, f Failure) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Code)
	if f.Raw != nil {
		_, _ = w.Write(f.Raw)
		return
	}
	body := map[string]any{"ok": false, "error_code": f.Code, "description": f.Description}
	params := map[string]any{}
	if f.RetryAfter > 0 {
		params["retry_after"] = f.RetryAfter
	}
	if f.MigrateTo != 0 {
		params["migrate_to_chat_id"] = f.MigrateTo
	}
	if len(params) > 0 {
		body["parameters"] = params
	}
	_ = json.NewEncoder(w).Encode(body)
}

func tooMany(retry int) Failure {
	return Failure{Code: 429, Description: fmt.Sprintf("Too Many Requests: retry after %d", retry), RetryAfter: retry}
}

func badRequest(desc string) Failure {
	return Failure{Code: 400, Description: "Bad Request: " + desc}
}

func parseInt(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n
}

func parseBool(s string) bool {
	b, _ := strconv.ParseBool(s)
	return b
}

// unix is a Telegram date.
func unix(t time.Time) int { return int(t.Unix()) }
