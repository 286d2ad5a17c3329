package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"unicode/utf8"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// QuarantineNamespace holds the items botctl store quarantine moved aside,
// each under "<module>:<key>": no module reads it, a snapshot keeps it.
const QuarantineNamespace = "quarantine"

// openKV opens the configured store for a repair.
func openKV(ctx context.Context, e env) (storage.KVProvider, error) {
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load)
	if err != nil {
		return nil, err
	}
	p, err := backend.Open(ctx, cfg, slog.New(slog.DiscardHandler))
	if errors.Is(err, bolt.ErrLocked) {
		return nil, fmt.Errorf("%w. The running bot holds the file: stop it to run this here (docs/backup.md)", err)
	}
	return p, err
}

// storeScan lists the damaged items: those the bot met and could not read
// (their markers), and those whose bytes break the store's own rules or are
// JSON no decoder can read.
func storeScan(ctx context.Context, e env) error {
	if _, err := e.positional(e.flags(), 0); err != nil {
		return err
	}
	p, err := openKV(ctx, e)
	if err != nil {
		return err
	}
	defer p.Close(context.WithoutCancel(ctx))
	seen := map[[2]string]bool{}
	found := 0
	report := func(ns, key, why string) {
		if seen[[2]string{ns, key}] {
			return
		}
		seen[[2]string{ns, key}] = true
		found++
		fmt.Fprintf(e.stdout, "%s\t%s\t%s\n", ns, strconv.Quote(key), why)
	}
	marks, err := core.DamagedItems(ctx, p)
	if err != nil {
		return fmt.Errorf("store scan: the bot's reports: %w", err)
	}
	for _, m := range marks {
		report(m.Namespace, m.Key, "the bot could not read it")
	}
	quarantined := 0
	err = storage.WalkAll(ctx, p, func(r storage.Raw) error {
		switch {
		case r.Namespace == QuarantineNamespace:
			quarantined++
		case r.Why() != "":
			report(r.Namespace, r.Key, "breaks the store's rules: "+r.Why())
		case broken(r.Value):
			report(r.Namespace, r.Key, "not valid JSON")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store scan: %w", err)
	}
	fmt.Fprintf(e.stdout, "store scan: %d damaged item(s); %d quarantined\n", found, quarantined)
	if found > 0 {
		fmt.Fprintln(e.stdout, "look at one: botctl store show <module> <key>; move it aside: botctl store quarantine <module> <key>")
	}
	return nil
}

// broken reports a value meant as JSON that is not: it opens as JSON does,
// or is not text, yet does not parse. A plain text value (a timestamp, a
// word) is some module's own format, not damage.
func broken(v []byte) bool {
	if json.Valid(v) {
		return false
	}
	t := bytes.TrimSpace(v)
	return len(t) > 0 && bytes.IndexByte([]byte(`{["`), t[0]) >= 0 || !utf8.Valid(v) || bytes.ContainsAny(v, "{}[]")
}

// onItem runs do on the item a command's two arguments name (a module's
// namespace and a key), in the store the flags open.
func onItem(ctx context.Context, e env, do func(ctx context.Context, e env, p storage.KVProvider, ns, key string) error) error {
	pos, err := e.positional(e.flags(), 2)
	if err != nil {
		return err
	}
	p, err := openKV(ctx, e)
	if err != nil {
		return err
	}
	defer p.Close(context.WithoutCancel(ctx))
	return do(ctx, e, p, pos[0], pos[1])
}

// storeShow prints one item as the store holds it, quoted, and why it
// does not decode.
func storeShow(ctx context.Context, e env) error {
	return onItem(ctx, e, showItem)
}

func showItem(ctx context.Context, e env, p storage.KVProvider, ns, key string) error {
	v, err := p.For(ns).Get(ctx, key)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s %s: %d bytes, fingerprint %s\n", ns, strconv.Quote(key), len(v), storage.Fingerprint(v))
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		fmt.Fprintf(e.stdout, "does not decode as JSON: %v\n", err)
	} else {
		fmt.Fprintln(e.stdout, "decodes as JSON (a module may still refuse its shape)")
	}
	fmt.Fprintln(e.stdout, strconv.Quote(string(v)))
	return nil
}

// storeDelete removes one item, and the bot's report of it.
func storeDelete(ctx context.Context, e env) error {
	return onItem(ctx, e, deleteItem)
}

func deleteItem(ctx context.Context, e env, p storage.KVProvider, ns, key string) error {
	if err := p.For(ns).Delete(ctx, key); err != nil {
		return err
	}
	if err := p.For(storage.CoreNamespace).Delete(ctx, core.DamageMarkKey(ns, key)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "deleted %s %s\n", ns, strconv.Quote(key))
	return nil
}

// storeQuarantine moves one item aside into QuarantineNamespace, nothing
// lost: the copy is written first, and the item removed only if it still
// holds the bytes copied.
func storeQuarantine(ctx context.Context, e env) error {
	return onItem(ctx, e, quarantineItem)
}

func quarantineItem(ctx context.Context, e env, p storage.KVProvider, ns, key string) error {
	src := p.For(ns)
	v, err := src.Get(ctx, key)
	if err != nil {
		return err
	}
	aside := ns + ":" + key
	if err := storage.ValidateKey(aside); err != nil {
		return fmt.Errorf("store quarantine: %w: show it (botctl store show) and delete it instead", err)
	}
	q := p.For(QuarantineNamespace)
	switch err := q.CompareAndSwap(ctx, aside, nil, v); {
	case errors.Is(err, storage.ErrConflict):
		old, gerr := q.Get(ctx, aside)
		if gerr != nil || !bytes.Equal(old, v) {
			return fmt.Errorf("store quarantine: %s %s already holds another value: look at it first (botctl store show %s %s)",
				QuarantineNamespace, strconv.Quote(aside), QuarantineNamespace, strconv.Quote(aside))
		}
	case err != nil:
		return err
	}
	if err := src.CompareAndDelete(ctx, key, v); err != nil {
		return fmt.Errorf("store quarantine: copied, but the item changed meanwhile and stays: %w", err)
	}
	if err := p.For(storage.CoreNamespace).Delete(ctx, core.DamageMarkKey(ns, key)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "moved %s %s to %s %s\n", ns, strconv.Quote(key), QuarantineNamespace, strconv.Quote(aside))
	return nil
}
