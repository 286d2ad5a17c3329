package e2e

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// migrateRun runs the built migrator with exactly env and returns its output.
func migrateRun(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(runtimetest.Build(t, "./cmd/migrate"), args...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestTheCutoverRunbookOnTheRealParts follows docs/cutover.md with the real
// binaries: Lambda on DynamoDB (dynalite, the RIE), the container on
// MongoDB (FerretDB), the migrator between them, one fake Telegram; in both
// directions (Lambda first, then the container first).
func TestTheCutoverRunbookOnTheRealParts(t *testing.T) {
	for _, lambdaFirst := range []bool{true, false} {
		name := map[bool]string{true: "Lambda+DynamoDB to container+MongoDB and back", false: "container+MongoDB to Lambda+DynamoDB and back"}[lambdaFirst]
		t.Run(name, func(t *testing.T) { rehearse(t, lambdaFirst) })
	}
}

// runtime is one side of a cutover: a way to talk to the bot, a store the
// migrator names, and a way to stop it.
type runtime struct {
	says  func(chat int64, text, want string)
	kind  string // the migrator's name of its backend
	label string // how the migrator prints it, for --confirm-target
	stop  func()
}

func rehearse(t *testing.T, lambdaFirst bool) {
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e9)
	dyn := runtimetest.Dynalite(t, "cutover"+suffix)
	srv := telegramtest.New(t)
	base := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"TELEGRAM_WEBHOOK_SECRET": webhookSecret, "OWNER_ID": "1",
	}
	lambdaEnv := maps.Clone(base)
	maps.Copy(lambdaEnv, dyn.Env)
	mongoDB := "cutover" + suffix
	containerEnv := maps.Clone(base)
	maps.Copy(containerEnv, map[string]string{"KV_PROVIDER": "mongodb", "MONGO_URL": testenv.Require(t, "MONGODB_TEST_URL"), "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": mongoDB})
	migEnv := maps.Clone(dyn.Env)
	delete(migEnv, "KV_PROVIDER")
	maps.Copy(migEnv, map[string]string{"MONGO_URL": containerEnv["MONGO_URL"], "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": mongoDB, "PATH": "/usr/bin:/bin"})

	expect := func(who, text, got, want string) {
		t.Helper()
		if !strings.HasPrefix(got, want) {
			t.Fatalf("%s on %s: %q, want %q", text, who, got, want)
		}
	}
	var rie *runtimetest.RIE
	nextID := int64(20000)
	lambda := &runtime{kind: "dynamodb", label: "dynamodb table " + dyn.Env["DYNAMODB_TABLE"], stop: func() {}}
	lambda.says = func(chat int64, text, want string) {
		t.Helper()
		if rie == nil {
			rie = startLambda(t, lambdaEnv)
		}
		nextID++
		u := telegramtest.Text(chat, 3, text)
		u.ID = nextID
		webhook(ctx, t, rie, u)
		expect("Lambda", text, srv.Messages()[len(srv.Messages())-1].Text, want)
	}
	var c *runtimetest.Container
	container := &runtime{kind: "mongodb", label: "mongodb database " + mongoDB}
	container.says = func(chat int64, text, want string) {
		t.Helper()
		if c == nil {
			c = runtimetest.StartContainer(t, containerEnv)
		}
		sent := len(srv.Messages())
		srv.Push(telegramtest.Text(chat, 3, text))
		if _, err := srv.WaitCalls(ctx, "sendMessage", sent+1); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		expect("the container", text, srv.Messages()[sent].Text, want)
	}
	container.stop = func() {
		if err := c.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := c.Wait(ctx); err != nil {
			t.Fatalf("container exit: %v", err)
		}
		c = nil
	}
	from, to := lambda, container
	if !lambdaFirst {
		from, to = container, lambda
	}
	migrate := func(src, dst *runtime, args ...string) string {
		t.Helper()
		out, err := migrateRun(t, migEnv, append([]string{"--from", src.kind, "--to", dst.kind}, args...)...)
		if err != nil {
			t.Fatalf("migrate %s -> %s %v: %v\n%s", src.kind, dst.kind, args, err, out)
		}
		return out
	}

	// The old runtime serves and takes writes.
	from.says(3, "/coin_topup 1000", "Topped up $1,000.00. Cash: $1,000.00.")
	from.says(-100, "/lolschedule_subscribe", "Subscribed")
	from.says(3, "/wordle_new", "New Wordle")
	from.stop()

	// Copy, and check the copy is exact.
	migrate(from, to)
	if out := migrate(from, to, "--verify"); !strings.Contains(out, "verify: identical") {
		t.Fatalf("verify right after the copy:\n%s", out)
	}

	// The new runtime serves: a trade, a new game, an unsubscribe.
	to.says(3, "/coin_topup 500", "Topped up $500.00. Cash: $1,500.00.")
	to.says(-100, "/lolschedule_unsubscribe", "Unsubscribed")
	to.says(3, "/wordle_new", "New Wordle")
	if out := migrate(from, to, "--verify-after-cutover"); !strings.Contains(out, "nothing of the source lost or rolled back") {
		t.Fatalf("verify after the cutover:\n%s", out)
	}
	if out := migrate(from, to); !strings.Contains(out, "kept:") {
		t.Fatalf("a rerun of the forward copy:\n%s", out)
	}
	to.says(3, "/coin_stats", "Cash: $1,500.00")                // the trade was not rolled back
	to.says(-100, "/lolschedule_unsubscribe", "Not subscribed") // nor the unsubscribe

	// Roll back: stop the new runtime, mirror its store onto the old one.
	to.stop()
	migrate(to, from, "--mirror", "--confirm-target", from.label)
	if out := migrate(to, from, "--verify"); !strings.Contains(out, "verify: identical") {
		t.Fatalf("verify after the mirror:\n%s", out)
	}
	// The old runtime serves again and sees every write and deletion made
	// on the new one.
	from.says(3, "/coin_stats", "Cash: $1,500.00")
	from.says(-100, "/lolschedule_unsubscribe", "Not subscribed here.")
}
