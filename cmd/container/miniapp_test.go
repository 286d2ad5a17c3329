package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// lineWatch is the console's stdout, telling found the first line that
// starts with prefix.
type lineWatch struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	found  chan string
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for _, line := range strings.Split(w.buf.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, w.prefix); ok && w.found != nil && strings.Contains(w.buf.String(), line+"\n") {
			w.found <- rest
			w.found = nil
		}
	}
	return len(p), nil
}

// gatedReader gives its text only once open is closed.
type gatedReader struct {
	open <-chan struct{}
	r    io.Reader
}

func (g gatedReader) Read(p []byte) (int, error) { <-g.open; return g.r.Read(p) }

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// The console serves the Mini App on PORT and prints a link signed for
// the person at the terminal, which opens their portfolio.
func TestTheConsoleServesTheMiniAppAndALinkSignedForItsUser(t *testing.T) {
	open := make(chan struct{})
	saved := consoleInput
	consoleInput = gatedReader{open: open, r: strings.NewReader("/ping\n")}
	t.Cleanup(func() { consoleInput = saved })
	found := make(chan string, 1)
	out := &lineWatch{prefix: "Open it as you, the owner: ", found: found}
	port := strconv.Itoa(freePort(t))
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), []string{"-console"}, envOf(map[string]string{"PORT": port}), out, io.Discard)
	}()

	link := <-found
	u, err := url.Parse(link)
	if err != nil || u.Host != "localhost:"+port || u.Path != "/app/" {
		t.Fatalf("link %q", link)
	}
	frag, _ := url.ParseQuery(u.EscapedFragment()) // as the page reads location.hash: decoded once
	get := func(path, initData string) (*http.Response, []byte) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+u.Host+path, nil)
		if initData != "" {
			req.Header.Set("Authorization", "tma "+initData)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	if res, _ := get("/app/", ""); res.StatusCode != http.StatusOK {
		t.Fatalf("the page: %d", res.StatusCode)
	}
	res, body := get("/app/api/me", frag.Get("tgWebAppData"))
	var me struct{ User struct{ ID int64 } }
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &me) != nil || me.User.ID != 1 {
		t.Fatalf("the signed link's API answer: %d %s", res.StatusCode, body)
	}
	if res, _ := get("/app/api/me", ""); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the signature: %d", res.StatusCode)
	}
	close(open)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
