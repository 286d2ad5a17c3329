package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// backupCreate writes a snapshot of the configured store to a file (or
// stdout). It needs the store's settings only, no bot token.
func backupCreate(ctx context.Context, e env) error {
	fs := e.flags()
	out := fs.String("o", "", "the archive to write (required); - writes it to stdout")
	if _, err := e.positional(fs, 0); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("backup create needs -o FILE (or -o - for stdout)")
	}
	cfg, p, err := openStore(ctx, e, true)
	if err != nil {
		return err
	}
	defer p.Close(context.WithoutCancel(ctx))
	switch m, marked, err := backup.RestoreInProgress(ctx, p); {
	case err != nil:
		return err
	case marked:
		return backup.Unfinished(m) // a snapshot of it would pass for a whole store
	}
	o := backup.Options{Source: backend.Describe(cfg), Bot: cfg.BotID()} // the id only, from TELEGRAM_BOT_TOKEN when set
	if f, ok := e.stderr.(*os.File); ok && backup.IsTerminal(f) {
		o.Progress = e.stderr
	}
	start := time.Now()
	var s *backup.Summary
	if *out == "-" {
		s, err = backup.Snapshot(ctx, p, e.stdout, o)
	} else {
		s, err = backup.WriteFile(ctx, p, *out, o)
	}
	if err != nil {
		return err
	}
	for _, bad := range s.Skipped {
		fmt.Fprintf(e.stderr, "backup: not archived, it breaks the storage rules: %s\n", bad)
	}
	report := e.stdout
	if *out == "-" {
		report = e.stderr // stdout is the archive
	}
	fmt.Fprintf(report, "backup: %s: %d items in %d namespaces, %s, CRC-32 %s, in %s -> %s\n",
		o.Source, s.Items, len(s.Namespaces), size(s.Bytes), s.CRC32, time.Since(start).Round(time.Millisecond), *out)
	// What the store holds, at a glance: the DynamoDB runbook looks at a
	// table restored to a point in time this way before pointing the bot at it.
	for _, ns := range slices.Sorted(maps.Keys(s.Namespaces)) {
		fmt.Fprintf(report, "  %s: %d\n", ns, s.Namespaces[ns])
	}
	return nil
}

// backupRestore restores an archive into the configured store, checked
// whole before anything is written and verified item by item after.
func backupRestore(ctx context.Context, e env) error {
	fs := e.flags()
	replace := fs.Bool("replace", false, "restore into a store that holds items: make it exactly the archive (overwrite what differs, delete what the archive lacks)")
	dryRun := fs.Bool("dry-run", false, "check the archive whole and say what a restore would do to the store; write nothing")
	otherBot := fs.Bool("other-bot", false, "restore an archive whose manifest names another bot than TELEGRAM_BOT_TOKEN's")
	parked := fs.Bool("parked", false, "restore the updates parked in the archive's inbox too: the bot answers them at its start, again if it had before")
	tmp := fs.String("tmp", "", "where the file store's payload is unpacked while restoring, checked for room first (default: beside BOLT_PATH for the file store, else the system's temporary directory)")
	args, err := e.positional(fs, 1)
	if err != nil {
		return err
	}
	// The archive is checked whole before the store is even opened: a
	// damaged one leaves no trace, not even a new, empty file store.
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load)
	if err != nil {
		return err
	}
	if *tmp == "" && cfg.Backend == config.BackendBolt {
		*tmp = filepath.Dir(cfg.BoltPath) // the disk the restore fills anyway, not /tmp, often small or in memory
	}
	a, err := backup.Open(args[0], *tmp)
	if err != nil {
		return fmt.Errorf("%w; nothing was restored", err)
	}
	defer a.Close(context.WithoutCancel(ctx))
	cfg, p, err := openStore(ctx, e, false)
	if err != nil {
		return err
	}
	defer p.Close(context.WithoutCancel(ctx))
	target := backend.Describe(cfg)
	fmt.Fprintf(e.stdout, "archive: %s, taken of %s at %s: %d items in %d namespaces, whole (CRC-32 %s)\n",
		args[0], a.Manifest.Source, a.Manifest.Created.Format(time.RFC3339), a.Summary.Items, len(a.Summary.Namespaces), a.Summary.CRC32)
	ro := backup.RestoreOptions{Replace: *replace, Bot: cfg.BotID(), OtherBot: *otherBot, Parked: *parked, Progress: e.stderr}
	if err := aboutTheBot(ctx, e.stdout, a, ro); err != nil {
		return err
	}
	if *dryRun {
		return restorePlan(ctx, e.stdout, a, p, target, ro)
	}
	rep, err := backup.Restore(ctx, a, p, ro)
	if rep != nil && rep.Copy != nil {
		rep.Copy.WriteSummary(e.stdout, false)
	}
	if rep != nil && rep.Verify != nil {
		rep.Verify.WriteTable(e.stdout)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", target, err)
	}
	held, parkedDone := a.Summary.Items, "restored"
	if !*parked {
		held, parkedDone = held-rep.Parked, "left out"
	}
	fmt.Fprintf(e.stdout, "restore: %s now holds %d of the archive's %d items (%d parked updates %s; %d deleted that it lacked, %d migrator checkpoints), verified item by item\n",
		target, held, a.Summary.Items, rep.Parked, parkedDone, rep.Deleted, rep.Checkpoints)
	return nil
}

// size is n bytes for a person.
func size(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// aboutTheBot says whose archive it is and how many parked updates it
// holds, and refuses another bot's unless told.
func aboutTheBot(ctx context.Context, w io.Writer, a *backup.Archive, o backup.RestoreOptions) error {
	parked, err := a.Parked(ctx)
	if err != nil {
		return err
	}
	whose := "a bot it does not name"
	if a.Manifest.Bot != 0 {
		whose = fmt.Sprintf("bot %d", a.Manifest.Bot)
	}
	mine := "TELEGRAM_BOT_TOKEN is not set: not compared"
	if o.Bot != 0 {
		mine = fmt.Sprintf("this store is bot %d's", o.Bot)
	}
	what := "left out, never answered (-parked restores them)"
	if o.Parked {
		what = "restored: the bot answers them at its start"
	}
	fmt.Fprintf(w, "archive of %s (%s); %d updates parked in its inbox, %s\n", whose, mine, parked, what)
	return backup.CheckBot(a.Manifest, o)
}

// restorePlan prints what a restore would do, writing nothing.
func restorePlan(ctx context.Context, w io.Writer, a *backup.Archive, p backup.Target, target string, o backup.RestoreOptions) error {
	m, marked, err := backup.RestoreInProgress(ctx, p)
	if err != nil {
		return err
	}
	empty, cmp, err := backup.Compare(ctx, a, p, o)
	switch {
	case err != nil:
		return err
	case marked:
		if cmp != nil {
			cmp.WriteTable(w)
		}
		fmt.Fprintf(w, "dry run: %v\n", backup.UnfinishedRefusal(m, cmp))
		return nil
	case empty:
		fmt.Fprintf(w, "dry run: %s is empty: a restore would write the archive's %d items, then verify them\n", target, a.Summary.Items)
		return nil
	}
	cmp.WriteTable(w)
	fmt.Fprintf(w, "dry run: %s\n", backup.Refusal(cmp))
	return nil
}

// openStore opens the configured store as a restore's target. A snapshot
// (forSnapshot) of a file that is not there is refused rather than taken
// of a new, empty one.
func openStore(ctx context.Context, e env, forSnapshot bool) (*config.Config, backup.Target, error) {
	cfg, err := wiring.LoadConfig(ctx, e.getenv, defaultchain.Load)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Backend == config.BackendBolt && forSnapshot {
		if _, err := os.Stat(cfg.BoltPath); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("backup: BOLT_PATH %s does not exist", cfg.BoltPath)
		}
	}
	if !forSnapshot {
		// A 0-byte file (a failed copy or restore) is refused to the bot,
		// naming this restore as the remedy; the restore checks the store
		// empty and verifies every item.
		cfg.BoltCreate = true
	}
	p, err := backend.Open(ctx, cfg, slog.New(slog.DiscardHandler))
	switch {
	case errors.Is(err, bolt.ErrLocked):
		return nil, nil, fmt.Errorf("%w. The running bot holds the file: it takes the file store's snapshots itself "+
			"(BACKUP_DIR, or now: botctl cron run backup); stop the bot to run this here (docs/backup.md)", err)
	case err != nil:
		return nil, nil, err
	}
	t, ok := p.(backup.Target)
	if !ok {
		p.Close(context.WithoutCancel(ctx))
		return nil, nil, fmt.Errorf("backup: the %s store cannot be walked and loaded", cfg.Backend)
	}
	return cfg, t, nil
}
