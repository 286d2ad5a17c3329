package e2e

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	ddb "github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

const (
	webhookSecret = "wh-secret"
	cronSecret    = "cron-secret"
	owner         = 1
)

// baseEnv is what a bot needs but its store.
func baseEnv(srv *telegramtest.Server) map[string]string {
	return map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret, "CRON_SHARED_SECRET": cronSecret, "OWNER_ID": "1",
		"TESTKIT_JOB_DURATION": "300ms",
	}
}

// sharedEnv is baseEnv on a fresh DynamoDB table of the test server: the
// store both runtimes open (the function serves from DynamoDB or memory,
// the container from any store), so a test of the two over one store, or
// side by side, meets there. It returns the table's provider to read it.
func sharedEnv(t *testing.T, srv *telegramtest.Server) (map[string]string, *ddb.Provider) {
	p := backendtest.Dynamo(t)
	env := baseEnv(srv)
	maps.Copy(env, map[string]string{
		"KV_PROVIDER": "dynamodb", "DYNAMODB_TABLE": p.Table(),
		"AWS_ENDPOINT_URL_DYNAMODB": testenv.Require(t, "AWS_ENDPOINT_URL_DYNAMODB"),
		"AWS_ACCESS_KEY_ID":         testenv.Require(t, "AWS_ACCESS_KEY_ID"), "AWS_SECRET_ACCESS_KEY": testenv.Require(t, "AWS_SECRET_ACCESS_KEY"),
		"AWS_REGION": testenv.Require(t, "AWS_REGION"), "AWS_EC2_METADATA_DISABLED": "true",
	})
	return env, p
}

func startLambda(t *testing.T, env map[string]string) *runtimetest.RIE {
	return runtimetest.StartRIE(t, runtimetest.Build(t, "./cmd/lambda", "lambda.norpc"), env)
}

func webhook(ctx context.Context, t *testing.T, rie *runtimetest.RIE, u *models.Update) {
	t.Helper()
	body, _ := json.Marshal(u)
	res, err := rie.InvokeURL(ctx, "POST", "/webhook", map[string]string{"X-Telegram-Bot-Api-Secret-Token": webhookSecret}, string(body))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("webhook: %d %v", res.StatusCode, err)
	}
}

var (
	// timestamp is a time as stored (RFC 3339) or as a reply shows it
	// (locale.DateTime: 07 Dec 2026 20:17, 07/12/2026 20:17).
	timestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?|\d{2}( [A-Z][a-z]{2} |/\d{2}/)\d{4} \d{2}:\d{2}`)
	// seen is the updates a state remembers applying (the stats tally's), by update_id.
	seen = regexp.MustCompile(`"applied":\[[^\]]*\]`)
)

// normalize hides what legitimately differs between two runs: the time,
// and the update_ids each side's Telegram gave the same conversation.
func normalize(s string) string {
	return seen.ReplaceAllString(timestamp.ReplaceAllString(s, "<time>"), `"applied":<update ids>`)
}

func texts(srv *telegramtest.Server) []string {
	var out []string
	for _, m := range srv.Messages() {
		out = append(out, normalize(m.Text))
	}
	return out
}

// moduleState dumps every module namespace (not the core's bookkeeping).
func moduleState(t *testing.T, p *ddb.Provider) map[string]string {
	t.Helper()
	ctx := t.Context()
	state := map[string]string{}
	names, err := p.Namespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range names {
		if ns == "core" {
			continue
		}
		for it, err := range p.Items(ctx, ns) {
			if err != nil {
				t.Fatal(err)
			}
			state[ns+"/"+it.Key] = normalize(string(it.Value))
		}
	}
	return state
}

func TestBothRuntimesHoldTheSameConversation(t *testing.T) {
	script := []string{"/start", "/ping", "/help", "/tk_echo hello, world", "/nope", "/info", "/mstats", "/tk_echo ✓ done"}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	// Container: polling.
	srvC := telegramtest.New(t)
	envC, storeC := sharedEnv(t, srvC)
	runtimetest.StartContainer(t, envC)
	for _, line := range script {
		srvC.Push(telegramtest.Text(owner, owner, line))
	}
	if _, err := srvC.WaitCalls(ctx, "sendMessage", len(script)); err != nil {
		t.Fatalf("container replies: %v", err)
	}

	// Lambda: the webhook, one invocation per update.
	srvL := telegramtest.New(t)
	envL, storeL := sharedEnv(t, srvL)
	rie := startLambda(t, envL)
	for i, line := range script {
		u := telegramtest.Text(owner, owner, line)
		u.ID = int64(5000 + i)
		webhook(ctx, t, rie, u)
	}

	// A button press: /help's page of another module, edited in place.
	for _, srv := range []*telegramtest.Server{srvC, srvL} {
		id, _, ok := srv.Keyboard(owner)
		if !ok {
			t.Fatal("/help sent no module buttons")
		}
		press := telegramtest.Press(owner, owner, id, "help:misc")
		if srv == srvC {
			srvC.Push(press)
			if _, err := srvC.WaitCalls(ctx, "editMessageText", 1); err != nil {
				t.Fatalf("the container's edit: %v", err)
			}
			continue
		}
		press.ID = 6000
		webhook(ctx, t, rie, press)
	}
	editsC, editsL := srvC.Edits(), srvL.Edits()
	if len(editsC) != 1 || len(editsL) != 1 || editsC[0] != editsL[0] || !strings.HasPrefix(editsC[0].Text, "<b>Commands: misc</b>") {
		t.Fatalf("the button press differs or failed:\ncontainer: %+v\nlambda:    %+v", editsC, editsL)
	}

	fromC, fromL := texts(srvC), texts(srvL)
	if !slices.Equal(fromC, fromL) {
		t.Fatalf("replies differ:\ncontainer: %q\nlambda:    %q", fromC, fromL)
	}
	stateC, stateL := moduleState(t, storeC), moduleState(t, storeL)
	if len(stateC) == 0 || !maps.Equal(stateC, stateL) {
		t.Fatalf("stored state differs:\ncontainer: %v\nlambda:    %v", stateC, stateL)
	}
}

func TestCutoverRehearsalBothRuntimesOverOneStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	srv := telegramtest.New(t) // one Telegram for both
	env, _ := sharedEnv(t, srv)
	c := runtimetest.StartContainer(t, env)
	rie := startLambda(t, env)

	// Fire one slot from both runtimes at once, twice (as Scheduler retries).
	slot := time.Now().UTC().Truncate(time.Minute).Format(time.RFC3339) // a manual fire names a recent slot
	for range 2 {
		var wg sync.WaitGroup
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, "POST", c.Base+"/cron/testkit_slow?scheduled="+slot, nil)
			req.Header.Set("X-Cron-Token", cronSecret)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
		wg.Go(func() {
			if out, err := rie.Invoke(ctx, map[string]string{"cron": "testkit_slow", "scheduledTime": slot}); err != nil {
				t.Errorf("scheduler event: %s %v", out, err)
			}
		})
		wg.Wait()
	}
	var finished int
	for _, m := range srv.Messages() {
		if m.Text == "testkit_slow finished" {
			finished++
		}
	}
	if finished != 1 {
		t.Fatalf("the slot ran %d times across both runtimes, want 1", finished)
	}

	// A ping through the container is visible to /mstats through Lambda.
	sent := len(srv.Messages())
	srv.Push(telegramtest.Text(owner, owner, "/ping"))
	if _, err := srv.WaitCalls(ctx, "sendMessage", sent+1); err != nil {
		t.Fatal(err)
	}
	u := telegramtest.Text(owner, owner, "/mstats")
	u.ID = 9000
	webhook(ctx, t, rie, u)
	if last := srv.Messages()[len(srv.Messages())-1].Text; !strings.HasPrefix(last, "Last /ping:") {
		t.Fatalf("Lambda did not see the container's write: %q", last)
	}
}
