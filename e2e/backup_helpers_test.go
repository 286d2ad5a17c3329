package e2e

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// drillStore is a backend the restore drill runs on: the settings the bot
// and botctl get, and the test's own hands on it while the bot is stopped.
type drillStore struct {
	name string
	env  map[string]string
	// open opens the store directly (the bot stopped); the caller closes it.
	open func(t *testing.T, env map[string]string) backup.Target
	// destroy loses the store (a deleted file, a dropped database).
	destroy func(t *testing.T, env map[string]string)
	// fresh is the settings of a new, empty store of the same kind.
	fresh func(t *testing.T) map[string]string
	// bulk is how many items the store holds before the bot starts: enough
	// for its snapshot to take a while (a server's scan is slower).
	bulk int
}

func fileStore(t *testing.T) drillStore {
	path := func() map[string]string {
		return map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": filepath.Join(t.TempDir(), "miti99bot.db")}
	}
	return drillStore{
		name: "file",
		env:  path(),
		open: func(t *testing.T, env map[string]string) backup.Target {
			p, err := bolt.Open(env["BOLT_PATH"])
			if err != nil {
				t.Fatal(err)
			}
			return p
		},
		destroy: func(t *testing.T, env map[string]string) {
			if err := os.Remove(env["BOLT_PATH"]); err != nil {
				t.Fatal(err)
			}
		},
		fresh: func(*testing.T) map[string]string { return path() },
		bulk:  100_000,
	}
}

func mongoStore(t *testing.T) drillStore {
	url := testenv.Require(t, "MONGODB_TEST_URL")
	open := func(t *testing.T, env map[string]string) backup.Target {
		p, err := mongodb.Open(context.Background(), mongodb.Config{URL: url, Database: env["MONGO_DATABASE"], AllowFerretDB: true}, mongodb.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	drop := func(t *testing.T, env map[string]string) {
		p := open(t, env).(*mongodb.Provider)
		defer p.Close(context.Background())
		if err := p.Database().Drop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	db := func() map[string]string {
		n++
		env := map[string]string{"KV_PROVIDER": "mongodb", "MONGO_URL": url, "MONGO_ALLOW_FERRETDB": "true", "MONGO_DATABASE": fmt.Sprintf("drill%d_%d", os.Getpid(), n)}
		t.Cleanup(func() { drop(t, env) })
		return env
	}
	return drillStore{name: "FerretDB", env: db(), open: open, destroy: drop, fresh: func(*testing.T) map[string]string { return db() }, bulk: 3000}
}

// botctlRun runs the built botctl with exactly env.
func botctlRun(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(runtimetest.Build(t, "./cmd/botctl"), args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// itemsOf is every item of the store by namespace and key, read with the
// bot stopped.
func (s drillStore) itemsOf(t *testing.T, env map[string]string) map[string]storage.Item {
	t.Helper()
	p := s.open(t, env)
	defer p.Close(context.Background())
	out := map[string]storage.Item{}
	if err := p.Walk(context.Background(), func(r storage.Raw) error {
		out[r.Namespace+"/"+r.Key] = r.Item
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameItem(a, b storage.Item) bool {
	return a.Namespace == b.Namespace && a.Key == b.Key && bytes.Equal(a.Value, b.Value) && a.UpdatedAt == b.UpdatedAt
}

// mustEqualItems fails unless got and want hold the same items exactly.
func mustEqualItems(t *testing.T, what string, got, want map[string]storage.Item) {
	t.Helper()
	if maps.EqualFunc(got, want, sameItem) {
		return
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !sameItem(g, w) {
			t.Errorf("%s: %s = %.60q at %d (held: %v); want %.60q at %d", what, k, g.Value, g.UpdatedAt, ok, w.Value, w.UpdatedAt)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %s should not be there", what, k)
		}
	}
	t.FailNow()
}

// bulk are n items of a namespace no module reads: a store big enough that
// a snapshot takes long enough for updates to arrive during it.
func bulk(n int) []storage.Item {
	out := make([]storage.Item, n)
	for i := range out {
		out[i] = storage.Item{Namespace: "bulk", Key: fmt.Sprintf("k%07d", i), Value: fmt.Appendf(nil, `{"i":%d,"pad":"%0200d"}`, i, i), UpdatedAt: int64(1e18 + i)}
	}
	return out
}
