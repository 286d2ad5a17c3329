package redact_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/redact"
)

func TestURLSecrets(t *testing.T) {
	tests := []struct {
		name, url string
		want      []string
	}{
		{"single host", "mongodb://bot:pa55word@db:27017/app", []string{"bot:pa55word", "pa55word"}},
		{"srv with options", "mongodb+srv://bot:pa55word@cluster0.x.net/?retryWrites=true", []string{"bot:pa55word", "pa55word"}},
		{"multi-host", "mongodb://bot:pa55word@h1:1,h2:2/db", []string{"bot:pa55word", "pa55word"}},
		{"percent-encoded password", "mongodb://bot:p%40ss%2Fw0rd@h/db", []string{"p%40ss%2Fw0rd", "p@ss/w0rd"}},
		{"no userinfo", "mongodb://127.0.0.1:27017", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := redact.URLSecrets(tt.url)
			if got[0] != tt.url {
				t.Fatalf("the whole URL must be a secret, got %q", got)
			}
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("URLSecrets(%q) = %q, missing %q", tt.url, got, w)
				}
			}
		})
	}
}

func TestErrorMasksSecretsAndKeepsTheChain(t *testing.T) {
	url := "mongodb://bot:pa55word@h/db"
	base := fmt.Errorf("dial %s: %w", url, context.DeadlineExceeded)
	err := redact.Error(base, redact.URLSecrets(url)...)
	if strings.Contains(err.Error(), "pa55word") || strings.Contains(err.Error(), url) {
		t.Fatalf("secret left in %q", err)
	}
	if !strings.Contains(err.Error(), redact.Mask) {
		t.Fatalf("no mask in %q", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("redaction must keep errors.Is working")
	}
	if redact.Error(nil, "x") != nil {
		t.Fatal("Error(nil) must be nil")
	}
}

func TestASecretIsMaskedInEveryEncoding(t *testing.T) {
	secret := "123456:a/b c\n\"d\"?e#f"
	for _, tt := range []struct{ name, text string }{
		{"as is", "token " + secret},
		{"quoted", strconv.Quote(secret)},
		{"JSON", func() string { b, _ := json.Marshal(map[string]string{"token": secret}); return string(b) }()},
		{"URL-encoded", "https://api.telegram.org/bot" + url.PathEscape(secret) + "/getMe?t=" + url.QueryEscape(secret)},
	} {
		set := redact.NewSet(secret)
		for how, got := range map[string]string{"String": redact.String(tt.text, secret), "a Set": set.String(tt.text)} {
			for _, part := range []string{"a/b", "b c", `\"d\"`, "a%2Fb", "%0A"} {
				if strings.Contains(got, part) {
					t.Errorf("%s, by %s: %q still shows %q", tt.name, how, got, part)
				}
			}
		}
	}
}
