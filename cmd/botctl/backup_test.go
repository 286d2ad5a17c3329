package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/backup/backuptest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// TestMain gives the help tests a whole archive to restore: restore
// checks it before it opens the store (the sandbox).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "botctl-test-")
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "empty.tar")
	if _, err := backup.WriteFile(context.Background(), memory.New(), path, backup.Options{Source: "memory store"}); err != nil {
		panic(err)
	}
	runnable["backup create"] = []string{"-o", filepath.Join(dir, "never.tar")}
	runnable["backup restore"] = []string{path}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fileStore is a bolt file with n items, closed again: the bot is stopped.
func fileStore(t *testing.T, n int) (path string, env map[string]string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "bot.db")
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var items []storage.Item
	for i := range n {
		items = append(items, storage.Item{Namespace: "coin", Key: fmt.Sprintf("u:%d", i), Value: fmt.Appendf(nil, `{"cash":%d}`, i), UpdatedAt: int64(i + 1)})
	}
	if _, err := p.Load(t.Context(), items, storage.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	return path, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}
}

// The runbook's commands: a snapshot of the stopped bot's file, restored
// into a new file and into MongoDB, every item verified.
func TestBackupCreateThenRestoreIntoAnyStore(t *testing.T) {
	_, env := fileStore(t, 30)
	archive := filepath.Join(t.TempDir(), "snap.tar")
	out, err := botctl(t, env, "backup", "create", "-o", archive)
	if err != nil || !strings.Contains(out, "30 items in 1 namespaces") || !strings.Contains(out, "\n  coin: 30\n") {
		t.Fatalf("backup create = %q, %v", out, err)
	}
	mongo := backendtest.Mongo(t)
	targets := []struct {
		name string
		env  map[string]string
	}{
		{"a new file", map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": filepath.Join(t.TempDir(), "restored.db")}},
		{"mongodb", map[string]string{"KV_PROVIDER": "mongodb", "MONGO_URL": os.Getenv("MONGODB_TEST_URL"), "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": mongo.Database().Name()}},
	}
	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			out, err := botctl(t, target.env, "backup", "restore", archive)
			if err != nil || !strings.Contains(out, "verify: identical") || !strings.Contains(out, "now holds 30 of the archive's 30 items") {
				t.Fatalf("backup restore = %v\n%s", err, out)
			}
			out, err = botctl(t, target.env, "backup", "restore", archive)
			if err == nil || !strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), "-replace") {
				t.Fatalf("a second restore = %v; want a refusal naming -replace\n%s", err, out)
			}
			out, err = botctl(t, target.env, "backup", "restore", "-dry-run", archive)
			if err != nil || !strings.Contains(out, "overwrite 0") {
				t.Fatalf("a dry run = %v\n%s", err, out)
			}
			if out, err = botctl(t, target.env, "backup", "restore", "-replace", archive); err != nil || !strings.Contains(out, "verify: identical") {
				t.Fatalf("a restore with -replace = %v\n%s", err, out)
			}
		})
	}
}

// A damaged archive is refused before the store is opened: no item is
// written, not even a new file made.
func TestBackupRestoreOfADamagedArchiveTouchesNothing(t *testing.T) {
	_, env := fileStore(t, 30)
	archive := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := botctl(t, env, "backup", "create", "-o", archive); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(archive, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "restored.db")
	_, err = botctl(t, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": target}, "backup", "restore", archive)
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "nothing was restored") {
		t.Fatalf("restore of a cut archive = %v", err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("the target file exists after a refused restore: %v", err)
	}
}

// A 0-byte file, left by a failed copy or restore, is what the bot refuses,
// naming a restore into it: that restore works.
func TestBackupRestoreIntoAnEmptyFileRestoresIt(t *testing.T) {
	_, env := fileStore(t, 30)
	archive := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := botctl(t, env, "backup", "create", "-o", archive); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "restored.db")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := botctl(t, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": target}, "backup", "restore", archive)
	if err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("restore into a 0-byte file = %v\n%s", err, out)
	}
}

// While the bot runs it holds the file: a snapshot from another process
// cannot be taken, and the error says who takes it instead.
func TestBackupCreateOfARunningBotsFileNamesTheWayThatWorks(t *testing.T) {
	path, env := fileStore(t, 3)
	p, err := bolt.Open(path) // the running bot
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(t.Context())
	_, err = botctl(t, env, "backup", "create", "-o", filepath.Join(t.TempDir(), "snap.tar"))
	if err == nil || !strings.Contains(err.Error(), "in use by another process") || !strings.Contains(err.Error(), "botctl cron run backup") {
		t.Fatalf("backup create while the bot runs = %v", err)
	}
	_, err = botctl(t, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": filepath.Join(t.TempDir(), "missing.db")}, "backup", "create", "-o", "x.tar")
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("backup create of a missing file = %v", err)
	}
}

// docs/backup.md: the DynamoDB runbook's step 2 looks at a table (one
// restored to a point in time) through a snapshot of it, which names what
// each namespace holds; the monthly test restore into memory reads that
// snapshot whole, restores and verifies every item, and writes nothing.
func TestASnapshotOfATableNamesItsNamespacesAndATestRestoreIntoMemoryVerifiesIt(t *testing.T) {
	table := backendtest.Dynamo(t)
	var items []storage.Item
	for i := range 40 {
		ns := []string{"coin", "wordle"}[i%2]
		items = append(items, storage.Item{Namespace: ns, Key: fmt.Sprintf("u:%d", i), Value: fmt.Appendf(nil, `{"n":%d}`, i), UpdatedAt: int64(i + 1)})
	}
	if _, err := table.Load(t.Context(), items, storage.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "restored.tar")
	out, err := botctl(t, map[string]string{"KV_PROVIDER": "dynamodb", "DYNAMODB_TABLE": table.Table()}, "backup", "create", "-o", archive)
	if err != nil || !strings.Contains(out, "40 items in 2 namespaces") || !strings.Contains(out, "\n  coin: 20\n  wordle: 20\n") {
		t.Fatalf("backup create of a table = %v; want its items per namespace\n%s", err, out)
	}
	out, err = botctl(t, map[string]string{"KV_PROVIDER": "memory"}, "backup", "restore", archive)
	if err != nil || !strings.Contains(out, "verify: identical") || !strings.Contains(out, "now holds 40 of the archive's 40 items") {
		t.Fatalf("a test restore into memory = %v\n%s", err, out)
	}
}

// A restore cut short is reported by every command that meets its store:
// the rerun refuses, naming the archive and what the store lacks, as the
// dry run says; a snapshot of it is refused; -replace finishes it.
func TestARestoreCutShortIsReportedUntilARerunWithReplaceFinishesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "restored.db")
	archive := backuptest.CutRestore(t, path, 40, 25)
	env := map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}

	_, err := botctl(t, env, "backup", "restore", archive)
	if err == nil || !strings.Contains(err.Error(), "never finished") || !strings.Contains(err.Error(), "lacks 15 items") || !strings.Contains(err.Error(), archive) {
		t.Fatalf("the rerun = %v; want a refusal naming the archive and the 15 items missing", err)
	}
	if out, err := botctl(t, env, "backup", "restore", "-dry-run", archive); err != nil || !strings.Contains(out, "lacks 15 items") {
		t.Fatalf("the dry run = %v; want it to name the 15 items missing\n%s", err, out)
	}
	if _, err := botctl(t, env, "backup", "create", "-o", filepath.Join(t.TempDir(), "x.tar")); err == nil || !strings.Contains(err.Error(), "never finished") {
		t.Fatalf("a snapshot of the cut store = %v; want a refusal", err)
	}
	if out, err := botctl(t, env, "backup", "restore", "-replace", archive); err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("the rerun with -replace = %v\n%s", err, out)
	}
	if out, err := botctl(t, env, "backup", "create", "-o", filepath.Join(t.TempDir(), "y.tar")); err != nil || !strings.Contains(out, "40 items") {
		t.Fatalf("a snapshot of the finished restore = %v\n%s", err, out)
	}
}

// A hostile archive (a few kilobytes, its store.db a sparse entry declaring
// 64 GiB) is refused by a dry run before a byte is unpacked: no file
// beside the target, where the payload would go, and no target.
func TestADryRunOfAnArchiveDeclaringMoreThanItHoldsUnpacksNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "restored.db")
	_, err := botctl(t, map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": target}, "backup", "restore", "-dry-run", backuptest.HostileArchive(t))
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "declares 68719476736 bytes") {
		t.Fatalf("the dry run = %v; want the archive refused as damaged, naming the size it declares", err)
	}
	if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
		t.Fatalf("the target's directory holds %v (%v); want nothing", left, err)
	}
}

// The manifest names the bot by the id in TELEGRAM_BOT_TOKEN, never the
// rest of it; a restore with another bot's token refuses unless told, and
// says how many updates the archive parked, restoring none unless told.
func TestARestoreOfAnotherBotsArchiveRefusesAndParkedUpdatesStayOutUnlessTold(t *testing.T) {
	path, env := fileStore(t, 5)
	p, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.For(storage.CoreNamespace).Put(t.Context(), "inbox:c7:0000000000000000042", []byte(`{"update_id":42}`)); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	env["TELEGRAM_BOT_TOKEN"] = "123456:SECRETpartOfTheToken"
	archive := filepath.Join(t.TempDir(), "snap.tar")
	if _, err := botctl(t, env, "backup", "create", "-o", archive); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"bot": 123456`) || strings.Contains(string(data), "SECRETpartOfTheToken") {
		t.Fatal("the archive should name bot 123456 and hold nothing else of its token")
	}

	other := map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": filepath.Join(t.TempDir(), "other.db"), "TELEGRAM_BOT_TOKEN": "654321:another"}
	out, err := botctl(t, other, "backup", "restore", archive)
	if err == nil || !strings.Contains(err.Error(), "another bot's") || !strings.Contains(out, "archive of bot 123456") {
		t.Fatalf("a restore into bot 654321's store = %v; want a refusal naming bot 123456\n%s", err, out)
	}
	out, err = botctl(t, other, "backup", "restore", "-other-bot", archive)
	if err != nil || !strings.Contains(out, "1 updates parked in its inbox, left out") || !strings.Contains(out, "now holds 5 of the archive's 6 items") {
		t.Fatalf("a restore told it is another bot's = %v\n%s", err, out)
	}
	out, err = botctl(t, other, "backup", "restore", "-other-bot", "-parked", "-replace", archive)
	if err != nil || !strings.Contains(out, "now holds 6 of the archive's 6 items (1 parked updates restored") {
		t.Fatalf("a restore told to restore the parked updates = %v\n%s", err, out)
	}
}
