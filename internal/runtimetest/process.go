package runtimetest

import (
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/testenv"
)

// Container is cmd/container running as a process, serving HTTP at Base.
type Container struct {
	*testenv.Process
	Base string // http://127.0.0.1:<port>
}

// StartContainer builds and runs cmd/container with exactly env and a free
// PORT, and returns once its HTTP surface answers. Its log lines must be
// valid JSON naming each key once (testenv.CheckLogs).
func StartContainer(t testing.TB, env map[string]string) *Container {
	t.Helper()
	addr := testenv.FreePort(t)
	env = maps.Clone(env)
	env["PORT"] = strings.TrimPrefix(addr, "127.0.0.1:")
	p := testenv.Start(t, env, Build(t, "./cmd/container"))
	p.CheckLogs()
	c := &Container{Process: p, Base: "http://" + addr}
	WaitHTTP(t, c.Base+"/")
	return c
}

// WaitHTTP polls url until it answers with any status.
func WaitHTTP(t testing.TB, url string) {
	t.Helper()
	err := testenv.Eventually(30*time.Second, func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	})
	if err != nil {
		t.Fatalf("%s never answered: %v", url, err)
	}
}
