package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// TestThreeReplicasInWebhookModeAnswerEachUpdateOnce runs three container
// processes in webhook mode on one DynamoDB table behind a round-robin proxy and
// plays Telegram: 500 updates across 50 chats, each delivered to two
// replicas at once (a redelivery after a timeout) and again until answered
// 200. Every update is answered exactly once, in order per chat, and a cron
// slot fired on all three runs once.
//
// It runs on dynalite, not FerretDB: FerretDB's filtered updates are not
// atomic, so two replicas racing for one update's claim may both win there
// (the bot says so at start), which a loaded machine showed as a repeated
// answer. Under load the store answers some writes after the store
// timeout, and runs fail and are claimed again: what it proves is that a failed run,
// a lost record and a slow run each still end in one answer (the record's
// tries, a run that ends before its claim turns stale, a claim again
// decided by an insert, a late run that leaves the newer claim alone).
func TestThreeReplicasInWebhookModeAnswerEachUpdateOnce(t *testing.T) {
	const replicas, chats, perChat = 3, 50, 10
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	srv := telegramtest.New(t)

	var backends []*url.URL
	var next atomic.Uint64
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[next.Add(1)%uint64(len(backends))])
	}})
	t.Cleanup(proxy.Close)

	env, _ := sharedEnv(t, srv)
	env["TELEGRAM_WEBHOOK_URL"] = "http://" + strings.TrimPrefix(proxy.URL, "http://") + "/webhook"
	var cs []*runtimetest.Container
	for range replicas {
		c := runtimetest.StartContainer(t, env)
		cs = append(cs, c)
		u, _ := url.Parse(c.Base)
		backends = append(backends, u)
	}
	if _, err := srv.WaitCalls(ctx, "setWebhook", replicas); err != nil {
		t.Fatalf("each replica registers the webhook: %v", err)
	}
	if calls := srv.Calls("getUpdates"); len(calls) != 0 {
		t.Fatalf("a replica in webhook mode polled: %d getUpdates", len(calls))
	}

	deliver := func(body string) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", proxy.URL+"/webhook", strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", webhookSecret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	// untilOK is Telegram: it delivers again, at its own pace, until it
	// gets a 2xx.
	retry := time.NewTicker(20 * time.Millisecond)
	defer retry.Stop()
	untilOK := func(body string) error {
		for attempt := 0; attempt < 1500; attempt++ {
			code, err := deliver(body)
			if err == nil && code == 200 {
				return nil
			}
			select {
			case <-retry.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return fmt.Errorf("never answered 200")
	}
	var wg sync.WaitGroup
	var id atomic.Int64
	id.Store(30000)
	for c := range chats {
		chat := int64(1000 + c)
		wg.Go(func() {
			for i := range perChat { // a chat's updates one after another, as Telegram sends them
				body := telegramtest.WebhookBody(t, id.Add(1), chat, chat, fmt.Sprintf("/tk_echo %d-%d", chat, i))
				var both sync.WaitGroup
				for range 2 { // the delivery and a redelivery, to two replicas at once
					both.Go(func() {
						if err := untilOK(body); err != nil {
							t.Error(err)
						}
					})
				}
				both.Wait()
			}
		})
	}
	wg.Wait()

	byChat := repliesByChatOf(srv)
	for c := range chats {
		chat := int64(1000 + c)
		var want []string
		for i := range perChat {
			want = append(want, fmt.Sprintf("echo: %d-%d", chat, i))
		}
		if got := byChat[chat]; !slices.Equal(got, want) {
			t.Fatalf("chat %d answered %q, want each once, in order", chat, got)
		}
	}

	// One cron slot fired on every replica at once runs once.
	slot := time.Now().UTC().Truncate(time.Minute).Format(time.RFC3339)
	var fires sync.WaitGroup
	for _, c := range cs {
		fires.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, "POST", c.Base+"/cron/testkit_slow?scheduled="+slot, nil)
			req.Header.Set("X-Cron-Token", cronSecret)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		})
	}
	fires.Wait()
	err := testenv.Eventually(30*time.Second, func() error {
		if n := countText(srv, "testkit_slow finished"); n != 1 {
			return fmt.Errorf("the slot finished %d times", n)
		}
		return nil
	})
	if err != nil || countText(srv, "testkit_slow started") != 1 {
		t.Fatalf("a slot fired on three replicas: %v (started %d times)", err, countText(srv, "testkit_slow started"))
	}
}

func repliesByChatOf(srv *telegramtest.Server) map[int64][]string {
	out := map[int64][]string{}
	for _, m := range srv.Messages() {
		out[m.ChatID] = append(out[m.ChatID], m.Text)
	}
	return out
}

func countText(srv *telegramtest.Server, text string) int {
	n := 0
	for _, m := range srv.Messages() {
		if m.Text == text {
			n++
		}
	}
	return n
}
