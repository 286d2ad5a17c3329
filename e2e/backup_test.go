package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/testenv"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/runtimetest"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// TestTheRestoreDrillBringsEveryGamePortfolioAndSubscriptionBack follows
// docs/backup.md on the real parts, on the file store and on FerretDB:
// users play, trade and subscribe through the bot; the bot snapshots
// itself while updates keep arriving; it stops; botctl snapshots the
// stopped store; the store is lost; botctl restores it; every item is
// back exactly, and the bot serves the games on from where they were.
func TestTheRestoreDrillBringsEveryGamePortfolioAndSubscriptionBack(t *testing.T) {
	for _, store := range []func(*testing.T) drillStore{fileStore, mongoStore} {
		s := store(t)
		t.Run(s.name, func(t *testing.T) { drill(t, s) })
	}
}

// owned are the namespaces of games, portfolios and subscriptions: the
// traffic during the snapshot (/ping) writes none of them.
var owned = map[string]bool{"wordle": true, "loldle": true, "coin": true, "gold": true, "lolschedule": true, "bulk": true}

func drill(t *testing.T, s drillStore) {
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	p := s.open(t, s.env) // a store with a history, big enough to take a while to copy
	for i, items := 0, bulk(s.bulk); i < len(items); i += 500 {
		if _, err := p.Load(ctx, items[i:i+500], storage.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	p.Close(ctx)

	srv := telegramtest.New(t)
	env := maps.Clone(s.env)
	maps.Copy(env, map[string]string{"TELEGRAM_BOT_TOKEN": srv.Token, "TELEGRAM_API_URL": srv.URL, "TELEGRAM_BOT_USERNAME": "miti99bot",
		"OWNER_ID": "1", "CRON_SHARED_SECRET": cronSecret, "BACKUP_DIR": t.TempDir(), "BACKUP_SCHEDULE": farSchedule(time.Now())})
	c := runtimetest.StartContainer(t, env)
	say := func(updates ...*models.Update) error {
		sent := len(srv.Messages())
		srv.Push(updates...)
		_, err := srv.WaitCalls(ctx, "sendMessage", sent+len(updates))
		return err
	}

	// Users play, trade and subscribe: one reply each. ABAFT is a word
	// Wordle accepts as a guess but never picks, so no game ends at once.
	var traffic []*models.Update
	for u := int64(1); u <= 12; u++ {
		traffic = append(traffic, telegramtest.Text(u, u, fmt.Sprintf("/coin_topup %d", 100*u)), telegramtest.Text(u, u, "/gold_topup 5000000"),
			telegramtest.Text(u, u, "/wordle_new"), telegramtest.Text(u, u, "/wordle abaft"), telegramtest.Text(u, u, "/loldle_new"),
			telegramtest.Text(-100-u, u, "/lolschedule_subscribe"))
	}
	if err := say(traffic...); err != nil {
		t.Fatal(err)
	}

	// The bot snapshots itself (the cron route, as botctl cron run backup
	// does) while updates keep arriving.
	stop, during := make(chan struct{}), 0
	var wg sync.WaitGroup
	var trafficErr error
	wg.Go(func() {
		for i := int64(0); ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if trafficErr = say(telegramtest.Text(2000+i%5, 2000+i%5, "/ping")); trafficErr != nil {
				return
			}
		}
	})
	if err := say(telegramtest.Text(2100, 2100, "/ping")); err != nil { // the traffic has begun
		t.Fatal(err)
	}
	before := len(srv.Messages())
	if out := postCron(ctx, t, c.Base, "backup"); out != "ran" {
		t.Fatalf("the snapshot's run answered %q", out)
	}
	during = len(srv.Messages()) - before
	close(stop)
	wg.Wait()
	if trafficErr != nil || during == 0 {
		t.Fatalf("traffic: %v; %d replies while the snapshot ran, want some", trafficErr, during)
	}
	t.Logf("%d updates answered while the snapshot ran", during)

	if err := c.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(ctx); err != nil {
		t.Fatalf("the bot's exit: %v", err)
	}
	live := s.itemsOf(t, s.env)

	// The runbook, the bot stopped: a snapshot, the store lost, the
	// snapshot restored into a new file or database (verified), the bot
	// pointed at it.
	stopped := t.TempDir() + "/stopped.tar"
	if out, err := botctlRun(t, s.env, "backup", "create", "-o", stopped); err != nil {
		t.Fatalf("backup create: %v\n%s", err, out)
	}
	s.destroy(t, s.env)
	restored := s.fresh(t)
	if out, err := botctlRun(t, restored, "backup", "restore", stopped); err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("backup restore: %v\n%s", err, out)
	}
	mustEqualItems(t, "the store restored from the stopped bot's snapshot", s.itemsOf(t, restored), live)

	checkTheBotsOwnSnapshot(t, s, env["BACKUP_DIR"], live)

	// The bot serves again from the restored store, games where they were.
	maps.Copy(env, restored)
	c = runtimetest.StartContainer(t, env)
	for _, step := range []struct {
		chat, user int64
		text, want string
	}{
		{3, 3, "/coin_stats", "Cash: $300.00"},
		{5, 5, "/gold_stats", "Cash: 5,000,000 VND"},
		{7, 7, "/wordle slate", "2/6"},
		{-107, 7, "/lolschedule_unsubscribe", "Unsubscribed"},
	} {
		sent := len(srv.Messages())
		if err := say(telegramtest.Text(step.chat, step.user, step.text)); err != nil {
			t.Fatal(err)
		}
		// Updates the bot had parked before it stopped come back with the
		// store, so other replies may come first: find this chat's.
		var got []string
		err := testenv.Eventually(30*time.Second, func() error {
			got = got[:0]
			for _, m := range srv.Messages()[sent:] {
				if m.ChatID == step.chat {
					got = append(got, m.Text)
				}
			}
			if !slices.ContainsFunc(got, func(text string) bool { return strings.Contains(text, step.want) }) {
				return errors.New("no such reply yet")
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s after the restore: %q, want %q in one", step.text, got, step.want)
		}
	}
}

// checkTheBotsOwnSnapshot restores the snapshot the bot took of itself
// under traffic into a new store: every game, portfolio and subscription
// is there as it was, and nothing is newer than in the store it was taken
// of.
func checkTheBotsOwnSnapshot(t *testing.T, s drillStore, dir string, live map[string]storage.Item) {
	t.Helper()
	archives, err := backup.Dir{Path: dir}.Archives()
	if err != nil || len(archives) != 1 {
		t.Fatalf("BACKUP_DIR holds %v (%v); want one snapshot", archives, err)
	}
	fresh := s.fresh(t)
	if out, err := botctlRun(t, fresh, "backup", "restore", archives[0]); err != nil || !strings.Contains(out, "verify: identical") {
		t.Fatalf("restoring the bot's own snapshot: %v\n%s", err, out)
	}
	got := s.itemsOf(t, fresh)
	n := 0
	for k, w := range live {
		if owned[w.Namespace] {
			if n++; !sameItem(got[k], w) {
				t.Errorf("%s: %.60q at %d in the bot's snapshot; want %.60q at %d", k, got[k].Value, got[k].UpdatedAt, w.Value, w.UpdatedAt)
			}
		}
	}
	for k, g := range got {
		if w, ok := live[k]; ok && g.UpdatedAt > w.UpdatedAt {
			t.Errorf("%s is newer in the snapshot than in the store", k)
		}
	}
	if n < s.bulk+12*4 {
		t.Fatalf("only %d items of games, portfolios and subscriptions compared", n)
	}
}

// postCron fires a job through the cron route and returns its answer.
// farSchedule is a daily BACKUP_SCHEDULE half a day from now: its last slot
// is past the scheduler's catch-up window and its next is hours away, so
// the only snapshots a test sees are the ones it asks for. (The default,
// 20:00 UTC, is caught up by a container started in the six hours after.)
func farSchedule(now time.Time) string {
	return fmt.Sprintf("0 %d * * *", (now.UTC().Hour()+12)%24)
}

func postCron(ctx context.Context, t *testing.T, base, job string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/cron/"+job, nil)
	req.Header.Set("X-Cron-Token", cronSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(body))
}
