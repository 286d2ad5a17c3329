package container_test

import (
	"testing"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/container"
)

// Without METRICS_ENABLED the wiring gets no sink at all (a nil interface,
// so it records nothing); with it, a Prometheus sink.
func TestPrometheusMakesASinkOnlyWhenMetricsAreEnabled(t *testing.T) {
	var off, on container.Prometheus
	if s := off.Sink(&config.Config{}); s != nil {
		t.Fatalf("metrics off: sink %#v, want nil", s)
	}
	if s := on.Sink(&config.Config{MetricsEnabled: true}); s == nil {
		t.Fatal("metrics on: no sink")
	}
}
