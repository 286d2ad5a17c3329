package deploy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// TestTheCopiedEnvExampleStartsTheDefaultSelfHost follows the documented
// self-host: `cp .env.example .env`, fill TELEGRAM_BOT_TOKEN, `docker compose
// up`. compose-go resolves the bot service's environment from exactly that
// .env (interpolation and env_file, as docker compose does), and the real
// container binary runs with it: it must start on the embedded file in the
// bot-data volume, not crash-loop under restart: unless-stopped.
func TestTheCopiedEnvExampleStartsTheDefaultSelfHost(t *testing.T) {
	srv := telegramtest.New(t)
	project := t.TempDir()
	dotenv := regexp.MustCompile(`(?m)^TELEGRAM_BOT_TOKEN=$`).ReplaceAllString(read(t, "../.env.example"), "TELEGRAM_BOT_TOKEN="+srv.Token)
	if !strings.Contains(dotenv, srv.Token) {
		t.Fatal(".env.example has no empty TELEGRAM_BOT_TOKEN= line to fill")
	}
	write(t, filepath.Join(project, ".env"), dotenv)
	write(t, filepath.Join(project, "compose.yml"), read(t, "../compose.yml"))

	// docker compose's own option set: the OS environment (none here, so the
	// machine's cannot leak in), then the project directory's .env.
	opts, err := cli.NewProjectOptions([]string{filepath.Join(project, "compose.yml")},
		cli.WithWorkingDirectory(project), cli.WithEnv(nil), cli.WithEnvFiles(), cli.WithDotEnv, cli.WithName("miti99bot"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("compose.yml with the copied .env does not load: %v", err)
	}
	bot := p.Services["bot"]
	env := map[string]string{}
	for k, v := range bot.Environment {
		if v != nil {
			env[k] = *v
		}
	}
	if bot.Restart != "unless-stopped" || len(bot.Volumes) != 2 { // the data, and the snapshots (BACKUP_DIR)
		t.Fatalf("the bot service: restart %q, volumes %+v", bot.Restart, bot.Volumes)
	}

	// What only this machine differs in: the volume is a temporary
	// directory, Telegram and the LoL schedule (the daily push, which a
	// start between 01:00 and 07:00 UTC runs at once) are fakes on
	// loopback, and the port is a free one.
	volume := bot.Volumes[0].Target
	rel, err := filepath.Rel(volume, env["BOLT_PATH"])
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("BOLT_PATH %q is not on the %s volume: the data would die with the container", env["BOLT_PATH"], volume)
	}
	data := t.TempDir()
	env["BOLT_PATH"] = filepath.Join(data, rel)
	env["TELEGRAM_API_URL"] = srv.URL
	lol := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"data":{"schedule":{"pages":{},"events":[]}}}`)
	}))
	t.Cleanup(lol.Close)
	env["LOLESPORTS_API_URL"] = lol.URL
	addr := testenv.FreePort(t)
	env["PORT"] = strings.TrimPrefix(addr, "127.0.0.1:")

	c := testenv.Start(t, env, runtimetest.Build(t, "./cmd/container"))
	c.CheckLogs()
	healthz := "http://" + addr + "/healthz"
	err = testenv.Eventually(30*time.Second, func() error {
		if c.Exited() {
			t.Fatalf("the bot exited at start (a crash loop under restart: unless-stopped):\n%s", c.Output())
		}
		resp, err := http.Get(healthz)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return errStatus(resp.StatusCode)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("GET /healthz: %v\n%s", err, c.Output())
	}
	srv.Push(telegramtest.Text(5, 5, "/ping"))
	if _, err := srv.WaitCalls(t.Context(), "sendMessage", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(env["BOLT_PATH"]); err != nil {
		t.Errorf("the data is not in the embedded file on the volume: %v\n%s", err, c.Output())
	}
}

type errStatus int

func (e errStatus) Error() string { return http.StatusText(int(e)) }

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
