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
// MongoDB (FerretDB), the migrator between them, one fake Telegram.
func TestTheCutoverRunbookOnTheRealParts(t *testing.T) {
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
	maps.Copy(containerEnv, map[string]string{"KV_PROVIDER": "mongodb", "MONGO_URL": testenv.Require(t, "MONGODB_TEST_URL"), "MONGO_DATABASE": mongoDB})
	migEnv := maps.Clone(dyn.Env)
	delete(migEnv, "KV_PROVIDER")
	maps.Copy(migEnv, map[string]string{"MONGO_URL": containerEnv["MONGO_URL"], "MONGO_DATABASE": mongoDB, "PATH": "/usr/bin:/bin"})

	nextID := int64(20000)
	lambdaSays := func(rie *runtimetest.RIE, chat int64, text string) string {
		t.Helper()
		nextID++
		u := telegramtest.Text(chat, 3, text)
		u.ID = nextID
		webhook(ctx, t, rie, u)
		return srv.Messages()[len(srv.Messages())-1].Text
	}

	// Lambda serves on DynamoDB and takes writes.
	rie := startLambda(t, lambdaEnv)
	lambdaSays(rie, 3, "/coin_topup 1000")
	lambdaSays(rie, -100, "/lolschedule_subscribe")
	lambdaSays(rie, 3, "/wordle_new")

	// Copy, and check the copy is exact.
	if out, err := migrateRun(t, migEnv, "--from", "dynamodb", "--to", "mongodb"); err != nil {
		t.Fatalf("copy: %v\n%s", err, out)
	}
	if out, err := migrateRun(t, migEnv, "--from", "dynamodb", "--to", "mongodb", "--verify"); err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("verify right after the copy: %v\n%s", err, out)
	}

	// The container serves on MongoDB: a trade, a new game, an unsubscribe.
	c := runtimetest.StartContainer(t, containerEnv)
	containerSays := func(chat int64, text, want string) {
		t.Helper()
		sent := len(srv.Messages())
		srv.Push(telegramtest.Text(chat, 3, text))
		if _, err := srv.WaitCalls(ctx, "sendMessage", sent+1); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := srv.Messages()[sent].Text; !strings.HasPrefix(got, want) {
			t.Fatalf("%s on the container: %q, want %q", text, got, want)
		}
	}
	containerSays(3, "/coin_topup 500", "Topped up $500.00. Cash: $1,500.00.")
	containerSays(-100, "/lolschedule_unsubscribe", "Unsubscribed")
	containerSays(3, "/wordle_new", "New Wordle")

	if out, err := migrateRun(t, migEnv, "--from", "dynamodb", "--to", "mongodb", "--verify-after-cutover"); err != nil || !strings.Contains(out, "nothing of the source lost or rolled back") {
		t.Fatalf("verify after the cutover: %v\n%s", err, out)
	}
	out, err := migrateRun(t, migEnv, "--from", "dynamodb", "--to", "mongodb")
	if err != nil || !strings.Contains(out, "kept:") {
		t.Fatalf("a rerun of the forward copy: %v\n%s", err, out)
	}
	containerSays(3, "/coin_stats", "Cash: $1,500.00")                // the trade was not rolled back
	containerSays(-100, "/lolschedule_unsubscribe", "Not subscribed") // nor the unsubscribe

	// Roll back: stop the container, mirror MongoDB onto DynamoDB.
	if err := c.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(ctx); err != nil {
		t.Fatalf("container exit: %v", err)
	}
	mirror := []string{"--from", "mongodb", "--to", "dynamodb", "--mirror", "--confirm-target", "dynamodb table " + dyn.Env["DYNAMODB_TABLE"]}
	if out, err := migrateRun(t, migEnv, mirror...); err != nil {
		t.Fatalf("mirror: %v\n%s", err, out)
	}
	if out, err := migrateRun(t, migEnv, "--from", "mongodb", "--to", "dynamodb", "--verify"); err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("verify after the mirror: %v\n%s", err, out)
	}

	// Lambda serves again and sees every container-era write and deletion.
	if got := lambdaSays(rie, 3, "/coin_stats"); !strings.HasPrefix(got, "Cash: $1,500.00") {
		t.Fatalf("Lambda after the rollback: %q", got)
	}
	if got := lambdaSays(rie, -100, "/lolschedule_unsubscribe"); got != "Not subscribed here." {
		t.Fatalf("Lambda after the rollback brought a subscription back: %q", got)
	}
}
