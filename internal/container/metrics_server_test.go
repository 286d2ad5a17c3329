package container

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/metrics/prom"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// The metrics listener is PORT's equal: the same read, write and idle
// timeouts, so idle keep-alives and slow clients do not pile up on it.
func TestTheMetricsListenerHasTheTimeoutsOfPORT(t *testing.T) {
	got, want := metricsServer(http.NotFoundHandler()), httpapi.NewServer(nil)
	if got.ReadHeaderTimeout != want.ReadHeaderTimeout || got.ReadTimeout != want.ReadTimeout ||
		got.WriteTimeout != want.WriteTimeout || got.IdleTimeout != want.IdleTimeout || got.MaxHeaderBytes != want.MaxHeaderBytes {
		t.Fatalf("metrics server %+v, want PORT's timeouts %+v", got, want)
	}
	if got.ReadTimeout == 0 || got.IdleTimeout == 0 {
		t.Fatal("a timeout of 0 is none")
	}
}

// startMetrics serves the metrics of a bot configured with host.
func startMetrics(t *testing.T, host string) string {
	_, port, _ := net.SplitHostPort(testenv.FreePort(t))
	p, _ := strconv.Atoi(port)
	stop, err := listenMetrics(slog.New(slog.DiscardHandler), host, p, prom.New().Handler())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(context.Background()) })
	return port
}

func TestTheMetricsListenerBindsMETRICS_HOST(t *testing.T) {
	port := startMetrics(t, "127.0.0.1")
	resp, err := http.Get("http://127.0.0.1:" + port + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		ip, _, _ := net.ParseCIDR(a.String())
		if ip == nil || ip.IsLoopback() || ip.To4() == nil {
			continue
		}
		conn, err := net.DialTimeout("tcp", net.JoinHostPort(ip.String(), port), time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("/metrics answers on %s; METRICS_HOST=127.0.0.1 must bind loopback only", ip)
		}
	}
}
