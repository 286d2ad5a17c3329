package container

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// CheckHealth is the container's HEALTHCHECK: distroless has no curl.
func CheckHealth(ctx context.Context, port string) error {
	if port == "" {
		port = "8080"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+port+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("unhealthy: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: /healthz answered %d", resp.StatusCode)
	}
	return nil
}
