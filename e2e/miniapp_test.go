package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

// answer is one runtime's answer to a Mini App request.
type answer struct {
	status int
	body   string
}

// Both runtimes serve the same Mini App: the page byte for byte, its API
// to a request Telegram signed for this bot and to nothing else.
func TestBothRuntimesServeTheSameMiniApp(t *testing.T) {
	srv := telegramtest.New(t)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret, "KV_PROVIDER": "memory"}
	user := `{"id":77,"first_name":"Mai"}`
	signed := initdata.Sign(srv.Token, url.Values{"auth_date": {strconv.FormatInt(time.Now().Unix(), 10)}, "user": {user}})
	forged := initdata.Sign("1:another-bot", url.Values{"auth_date": {strconv.FormatInt(time.Now().Unix(), 10)}, "user": {user}})
	requests := []struct {
		name, path, auth string
	}{
		{"the page", "/app/", ""},
		{"the script", "/app/static/app.js", ""},
		{"the signed user's portfolios", "/app/api/me", "tma " + signed},
		{"another bot's signature", "/app/api/me", "tma " + forged},
		{"no signature", "/app/api/me", ""},
	}

	container := runtimetest.StartContainer(t, env)
	rie := runtimetest.StartRIE(t, runtimetest.Build(t, "./cmd/lambda", "lambda.norpc"), env)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for _, r := range requests {
		t.Run(r.name, func(t *testing.T) {
			headers := map[string]string{}
			if r.auth != "" {
				headers["Authorization"] = r.auth
			}
			res, err := rie.InvokeURL(ctx, http.MethodGet, r.path, headers, "")
			if err != nil {
				t.Fatal(err)
			}
			lambda := answer{res.StatusCode, res.Body}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, container.Base+r.path, nil)
			for k, v := range headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			ctr := answer{resp.StatusCode, string(body)}
			if lambda != ctr {
				t.Fatalf("Lambda answered %d %.200q, the container %d %.200q", lambda.status, lambda.body, ctr.status, ctr.body)
			}
			switch r.auth {
			case "tma " + signed:
				var me struct{ User struct{ ID int64 } }
				if ctr.status != http.StatusOK || json.Unmarshal(body, &me) != nil || me.User.ID != 77 {
					t.Fatalf("%d %s", ctr.status, body)
				}
			case "":
				if r.path == "/app/api/me" && (ctr.status != http.StatusUnauthorized || ctr.body != "") {
					t.Fatalf("%d %q, want 401 and nothing else", ctr.status, ctr.body)
				}
				if r.path != "/app/api/me" && ctr.status != http.StatusOK {
					t.Fatalf("%d", ctr.status)
				}
			default:
				if ctr.status != http.StatusUnauthorized || ctr.body != "" {
					t.Fatalf("%d %q, want 401 and nothing else", ctr.status, ctr.body)
				}
			}
		})
	}
}
