package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// startContainer runs the built binary against the fake Bot API.
func startContainer(t *testing.T, srv *telegramtest.Server, extra map[string]string) (*testenv.Process, string) {
	t.Helper()
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot", "OWNER_ID": "1",
	}
	maps.Copy(env, extra)
	c := runtimetest.StartContainer(t, env)
	return c.Process, c.Base
}

func status(t *testing.T, url string) int {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// repliesByChat groups the bot's texts per chat, in order.
func repliesByChat(srv *telegramtest.Server) map[int64][]string {
	out := map[int64][]string{}
	for _, m := range srv.Messages() {
		out[m.ChatID] = append(out[m.ChatID], m.Text)
	}
	return out
}

func TestTheContainerProcessKeepsOrderAndLosesNothingInAnOutage(t *testing.T) {
	store := runtimetest.FerretDB(t, "container")
	srv := telegramtest.New(t)
	_, base := startContainer(t, srv, store.Env)
	ctx := t.Context()

	var want []string
	for i := range 5 {
		srv.Push(telegramtest.Text(11, 11, fmt.Sprintf("/tk_echo a%d", i)), telegramtest.Text(22, 22, fmt.Sprintf("/tk_echo b%d", i)))
		want = append(want, fmt.Sprintf("echo: a%d", i))
	}
	if _, err := srv.WaitCalls(ctx, "sendMessage", 10); err != nil {
		t.Fatalf("replies: %v", err)
	}
	got := repliesByChat(srv)
	if !slices.Equal(got[11], want) || len(got[22]) != 5 || got[22][4] != "echo: b4" {
		t.Fatalf("replies per chat: %v", got)
	}

	store.Stop()
	if err := testenv.Eventually(30*time.Second, func() error {
		if s := status(t, base+"/healthz"); s != 503 {
			return fmt.Errorf("healthz %d", s)
		}
		return nil
	}); err != nil {
		t.Fatalf("/healthz never reported the outage: %v", err)
	}
	srv.Push(telegramtest.Text(11, 11, "/tk_echo during the outage"))
	// The poller fetches it, fails, and keeps the offset: it stays pending.
	if _, err := srv.WaitCalls(ctx, "getUpdates", len(srv.Calls("getUpdates"))+2); err != nil {
		t.Fatal(err)
	}
	if srv.Pending() == 0 {
		t.Fatal("an update that could not be handled was acknowledged")
	}

	store.Restart()
	if _, err := srv.WaitCalls(ctx, "sendMessage", 11); err != nil {
		t.Fatalf("the update was lost: %v", err)
	}
	if last := srv.Messages()[10]; last.Text != "echo: during the outage" || last.ChatID != 11 {
		t.Fatalf("after the outage: %+v", last)
	}
	if s := status(t, base+"/healthz"); s != 200 {
		t.Fatalf("/healthz after recovery = %d", s)
	}
}

func TestSIGTERMLetsARunningCronJobFinish(t *testing.T) {
	srv := telegramtest.New(t)
	p, base := startContainer(t, srv, map[string]string{"CRON_SHARED_SECRET": "tok", "TESTKIT_JOB_DURATION": "1s"})
	ctx := t.Context()

	type result struct {
		code int
		body string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/cron/testkit_slow", nil)
		req.Header.Set("X-Cron-Token", "tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			res <- result{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res <- result{code: resp.StatusCode, body: string(b)}
	}()
	if _, err := srv.WaitCalls(ctx, "sendMessage", 1); err != nil { // "testkit_slow started"
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.err != nil || r.code != 200 || r.body != "ran\n" {
		t.Fatalf("the job in flight was cut off: %+v", r)
	}
	waitCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := p.Wait(waitCtx); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Output())
	}
	msgs := srv.Messages()
	if len(msgs) != 2 || msgs[1].Text != "testkit_slow finished" {
		t.Fatalf("messages %+v", msgs)
	}
	if !strings.Contains(p.Output(), `"msg":"stopped"`) {
		t.Fatalf("no orderly stop in the logs:\n%s", p.Output())
	}
}

// TestASIGKILLMidBurstLosesNothingAndKeepsEachChatInOrder kills the
// container while it works through 200 updates in 20 chats, then starts a
// new one on the same store: every update is answered, in order per chat.
// An update whose reply left just before the kill, but whose record did not
// (the at-least-once window no store can close), is answered once more,
// right after itself: at most one per chat, the one in flight.
func TestASIGKILLMidBurstLosesNothingAndKeepsEachChatInOrder(t *testing.T) {
	const chats, perChat = 20, 10
	store := runtimetest.FerretDB(t, "crash")
	srv := telegramtest.New(t)
	first, _ := startContainer(t, srv, store.Env)
	want := map[int64][]string{}
	for i := range perChat {
		for c := int64(1); c <= chats; c++ {
			text := fmt.Sprintf("c%d-%d", c, i)
			srv.Push(telegramtest.Text(100+c, 100+c, "/tk_echo "+text))
			want[100+c] = append(want[100+c], "echo: "+text)
		}
	}
	if _, err := srv.WaitCalls(t.Context(), "sendMessage", chats*perChat/3); err != nil {
		t.Fatal(err)
	}
	first.Kill() // SIGKILL: no shutdown at all
	answeredBefore := len(srv.Messages())
	startContainer(t, srv, store.Env)

	err := testenv.Eventually(90*time.Second, func() error {
		got := repliesByChat(srv)
		for chat, w := range want {
			if d := dedupAdjacent(got[chat]); len(d) < len(w) {
				return fmt.Errorf("chat %d has %d of %d answers", chat, len(d), len(w))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	extra := 0
	for chat, w := range want {
		got := repliesByChat(srv)[chat]
		if d := dedupAdjacent(got); !slices.Equal(d, w) {
			t.Fatalf("chat %d answered out of order or wrongly:\n got %q\nwant %q", chat, d, w)
		}
		if n := len(got) - len(w); n > 1 {
			t.Fatalf("chat %d has %d repeated answers, want at most the one in flight: %q", chat, n, got)
		} else {
			extra += n
		}
	}
	t.Logf("%d answers before the kill, %d after; %d answered twice (in flight at the kill)", answeredBefore, len(srv.Messages())-answeredBefore, extra)
}

// dedupAdjacent drops a text that repeats the one before it.
func dedupAdjacent(texts []string) []string {
	var out []string
	for _, s := range texts {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// TestTheFileStoreSurvivesASIGKILLMidWrite kills the container on the
// embedded store while it writes, starts it again on the same file: the
// file opens (the lock went with the process) and every write whose reply
// was seen is there.
func TestTheFileStoreSurvivesASIGKILLMidWrite(t *testing.T) {
	srv := telegramtest.New(t)
	file := filepath.Join(t.TempDir(), "bot.db")
	env := map[string]string{"BOLT_PATH": file}
	first, _ := startContainer(t, srv, env)
	const n = 60
	for i := range n {
		srv.Push(telegramtest.Text(7, 7, fmt.Sprintf("/tk_echo %03d", i)))
	}
	if _, err := srv.WaitCalls(t.Context(), "sendMessage", n/3); err != nil {
		t.Fatal(err)
	}
	first.Kill()
	acknowledged := len(srv.Messages())

	startContainer(t, srv, env) // must open the file a killed process held
	if err := testenv.Eventually(60*time.Second, func() error {
		if d := dedupAdjacent(repliesByChat(srv)[7]); len(d) < n {
			return fmt.Errorf("%d of %d answered", len(d), n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if d := dedupAdjacent(repliesByChat(srv)[7]); d[n-1] != fmt.Sprintf("echo: %03d", n-1) {
		t.Fatalf("last answer %q", d[n-1])
	}
	// The records of the answered updates survived: none is answered again,
	// but for the one in flight at the kill.
	if extra := len(repliesByChat(srv)[7]) - n; extra > 1 {
		t.Fatalf("%d updates answered twice: the file lost acknowledged writes", extra)
	}
	t.Logf("%d answers before the kill; all %d answered after the restart", acknowledged, n)
}
