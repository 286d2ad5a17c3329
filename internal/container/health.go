package container

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// maxReason bounds the part of /healthz's body a failed check prints.
const maxReason = 300

// CheckHealth is the container's HEALTHCHECK: distroless has no curl. It
// dials the bot where BIND_ADDR (host) and PORT put it; every interface
// (host unset or unspecified) includes loopback. A failure quotes the
// reason /healthz gives, since its output is what Docker and Coolify show
// of an unhealthy container.
func CheckHealth(ctx context.Context, host, port string) error {
	if port == "" {
		port = "8080"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("unhealthy: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxReason))
	// The body reads "unhealthy: <reason>"; one line of the reason is enough.
	reason := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(string(body)), "unhealthy:")), " ")
	if reason == "" {
		return fmt.Errorf("unhealthy: /healthz answered %d", resp.StatusCode)
	}
	return fmt.Errorf("unhealthy: /healthz answered %d: %s", resp.StatusCode, strings.ToValidUTF8(reason, ""))
}
