package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// The runbook for a damaged item: store scan finds the portfolio the bot
// could not read, store show shows it, store quarantine moves it aside
// (nothing lost), and then the bot is healthy and its user served again.
func TestAStoreScanFindsADamagedItemAndQuarantineRepairsIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	env := map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": path}
	open := func() *bolt.Provider {
		p, err := bolt.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := open()
	b := apptest.NewOnStore(t, p, telegramtest.New(t), nil, builtin.Catalogue())
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	coin := b.Store.For("coin")
	v, err := coin.Get(t.Context(), "user:3")
	if err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Clone(v)
	damaged[0] ^= 0x20
	if err := coin.Put(t.Context(), "user:3", damaged); err != nil {
		t.Fatal(err)
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_stats")
	if err := p.Close(t.Context()); err != nil { // the bot is stopped
		t.Fatal(err)
	}

	out, err := botctl(t, env, "store", "scan")
	if err != nil || !strings.Contains(out, "coin\t\"user:3\"\tthe bot could not read it") || !strings.Contains(out, "1 damaged item(s); 0 quarantined") {
		t.Fatalf("store scan = %q, %v; want the portfolio listed", out, err)
	}
	out, err = botctl(t, env, "store", "show", "coin", "user:3")
	if err != nil || !strings.Contains(out, "does not decode as JSON") || !strings.Contains(out, "fingerprint "+storage.Fingerprint(damaged)) {
		t.Fatalf("store show = %q, %v", out, err)
	}
	if out, err = botctl(t, env, "store", "quarantine", "coin", "user:3"); err != nil {
		t.Fatalf("store quarantine = %q, %v", out, err)
	}
	out, err = botctl(t, env, "store", "scan")
	if err != nil || !strings.Contains(out, "0 damaged item(s); 1 quarantined") {
		t.Fatalf("store scan after the repair = %q, %v", out, err)
	}

	p = open()
	t.Cleanup(func() { _ = p.Close(t.Context()) })
	b = apptest.NewOnStore(t, p, telegramtest.New(t), nil, builtin.Catalogue())
	if got, err := b.Store.For(QuarantineNamespace).Get(t.Context(), "coin:user:3"); err != nil || !bytes.Equal(got, damaged) {
		t.Errorf("the quarantined copy = %q, %v; want the damaged bytes kept", got, err)
	}
	if err := b.App.Health(t.Context()); err != nil {
		t.Errorf("Health after the repair = %v, want ok", err)
	}
	b.MustSay(apptest.PrivateChat, apptest.User, "/coin_topup 1000")
	if got := b.Last(); strings.Contains(got, "cannot be read") {
		t.Errorf("after the repair /coin_topup = %q, want it served", got)
	}
}
