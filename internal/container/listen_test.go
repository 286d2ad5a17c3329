package container

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// freePort is a TCP port free on loopback now.
func freePort(t *testing.T) int {
	t.Helper()
	_, port, _ := net.SplitHostPort(testenv.FreePort(t))
	p, _ := strconv.Atoi(port)
	return p
}

// answersOn reports whether something accepts connections at ip:port.
func answersOn(ip string, port int) bool {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(ip, strconv.Itoa(port)), time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// outerIPv4 are this host's IPv4 addresses that are not loopback.
func outerIPv4() []string {
	var out []string
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, _, _ := net.ParseCIDR(a.String()); ip != nil && !ip.IsLoopback() && ip.To4() != nil {
			out = append(out, ip.String())
		}
	}
	return out
}

func TestTheHTTPPortListensOnBIND_ADDROnly(t *testing.T) {
	port := freePort(t)
	ln, err := listenHTTP("127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if !answersOn("127.0.0.1", port) {
		t.Fatal("PORT does not answer on BIND_ADDR=127.0.0.1")
	}
	for _, ip := range outerIPv4() {
		if answersOn(ip, port) {
			t.Fatalf("PORT answers on %s; BIND_ADDR=127.0.0.1 must bind loopback only", ip)
		}
	}
}

func TestWithoutBIND_ADDRTheHTTPPortListensOnEveryInterface(t *testing.T) {
	port := freePort(t)
	ln, err := listenHTTP("", port)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, ip := range append([]string{"127.0.0.1"}, outerIPv4()...) {
		if !answersOn(ip, port) {
			t.Fatalf("PORT does not answer on %s; unset BIND_ADDR means every interface", ip)
		}
	}
}

func TestAListenerThatCannotBindNamesBIND_ADDRAndPORT(t *testing.T) {
	ln, err := listenHTTP("192.0.2.1", freePort(t)) // TEST-NET-1: no interface of this host
	if err == nil {
		ln.Close()
		t.Fatal("listened on an address this host does not have")
	}
	if want := "listen on BIND_ADDR:PORT 192.0.2.1:"; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Fatalf("error %q; want it to start %q", err, want)
	}
}

// The HEALTHCHECK runs in the container beside the bot: it must reach the
// bot where BIND_ADDR put it, not only on 127.0.0.1.
func TestTheHealthcheckDialsBIND_ADDR(t *testing.T) {
	const ip = "127.0.0.2" // loopback, yet not 127.0.0.1
	port := freePort(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("cannot listen on %s (all of 127.0.0.0/8 is loopback on Linux): %v", ip, err)
	}
	serveHealthy(t, ln)
	if err := CheckHealth(t.Context(), ip, strconv.Itoa(port)); err != nil {
		t.Fatalf("CheckHealth(BIND_ADDR=%s) = %v", ip, err)
	}
}

// Every interface includes loopback, where the healthcheck dials then.
func TestTheHealthcheckDialsLoopbackWhenBIND_ADDRIsEveryInterface(t *testing.T) {
	port := freePort(t)
	ln, err := listenHTTP("", port)
	if err != nil {
		t.Fatal(err)
	}
	serveHealthy(t, ln)
	for _, host := range []string{"", "0.0.0.0", "::"} {
		if err := CheckHealth(t.Context(), host, strconv.Itoa(port)); err != nil {
			t.Errorf("CheckHealth(BIND_ADDR=%q) = %v", host, err)
		}
	}
}

// serveHealthy serves a healthy /healthz on ln until the test ends.
func serveHealthy(t *testing.T, ln net.Listener) {
	srv := httptest.NewUnstartedServer(httpapi.NewHandler(httpapi.Config{
		Health: func(context.Context) error { return nil }, Log: slog.New(slog.DiscardHandler),
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
}
