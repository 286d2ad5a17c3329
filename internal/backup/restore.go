package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Target is a store a restore writes: what the migrator writes to.
type Target interface {
	storage.KVProvider
	storage.Walker
	storage.Loader
}

// RestoreOptions say how a restore treats the store.
type RestoreOptions struct {
	// Replace makes a store that holds items exactly the archive (the
	// migrator's mirror: it overwrites what differs and deletes what the
	// archive lacks). Without it such a store is refused (ErrNotEmpty).
	Replace bool
	// Bot is the numeric id of the bot the store serves (0: unknown). An
	// archive whose manifest names another is refused (ErrOtherBot) unless
	// OtherBot says to restore it all the same.
	Bot      int64
	OtherBot bool
	// Parked restores the updates parked in the archive's inbox, which
	// the bot then answers at its start (again, if it answered them
	// before the snapshot was restored). Without it they are left out.
	Parked   bool
	Progress io.Writer // the migrator's progress lines; nil: none
}

// RestoreReport is what a restore did.
type RestoreReport struct {
	Copy        *migrate.Report
	Deleted     int64 // -replace: items the archive lacks, deleted
	Checkpoints int   // the migrator's checkpoints, restored as they were
	Parked      int64 // updates parked in the archive's inbox: restored only with Parked
	Verify      *migrate.VerifyReport
}

// ErrNotEmpty refuses a restore into a store that holds items, unless
// told to replace them.
var ErrNotEmpty = errors.New("backup: the store is not empty")

// Restore writes every item of the archive into dst, then verifies every
// one against the archive with the migrator's verify. An archive is
// checked whole when it is opened, so a damaged one never gets here.
// Into an empty store it is the migrator's copy; into one that holds
// items, it refuses, naming what it would overwrite, unless Replace says
// to make the store exactly the archive. The migrator's checkpoints go
// back too: they say which way the data last went, for the next copy.
// A mark in dst (RestoreInProgress) says a restore is under way from
// before the first write until the verify passed, so one cut short is
// refused, by the bot and by a rerun without Replace, never taken for a
// whole store. Another bot's archive is refused unless o.OtherBot, and
// the updates parked in the archive's inbox are left out unless o.Parked.
func Restore(ctx context.Context, a *Archive, dst Target, o RestoreOptions) (*RestoreReport, error) {
	if err := CheckBot(a.Manifest, o); err != nil {
		return nil, err
	}
	parked, err := a.Parked(ctx)
	if err != nil {
		return nil, err
	}
	src := sourceOf(a, o)
	mark, marked, err := RestoreInProgress(ctx, dst)
	if err != nil {
		return nil, err
	}
	view := unmarked{dst}
	empty, err := isEmpty(ctx, view)
	if err != nil {
		return nil, fmt.Errorf("backup: reading the store: %w", err)
	}
	if (marked || !empty) && !o.Replace {
		cmp, err := against(ctx, src, view)
		if err != nil {
			return nil, err
		}
		if marked {
			return nil, UnfinishedRefusal(mark, cmp)
		}
		return nil, Refusal(cmp)
	}
	writes := a.Summary.Items
	if !o.Parked {
		writes -= parked
	}
	if err := putMark(ctx, dst, a, writes); err != nil {
		return nil, err
	}
	rep := &RestoreReport{Parked: parked}
	mo := migrate.Options{Progress: o.Progress}
	if empty {
		rep.Copy, err = migrate.Copy(ctx, src, view, mo)
	} else {
		var m *migrate.MirrorReport
		if m, err = migrate.Mirror(ctx, src, view, mo); m != nil {
			rep.Copy, rep.Deleted = m.Copy, m.Deleted
		}
	}
	if err == nil {
		rep.Checkpoints, err = restoreCheckpoints(ctx, a, dst)
	}
	if err != nil {
		return rep, fmt.Errorf("backup: the restore stopped part way; rerun it with -replace to finish: %w", err)
	}
	if rep.Verify, err = migrate.Verify(ctx, src, view, o.Progress); err != nil {
		return rep, fmt.Errorf("backup: verifying the restore: %w", err)
	}
	if err := dst.For(storage.CoreNamespace).Delete(ctx, markKey); err != nil {
		return rep, fmt.Errorf("backup: the restore is verified, but its mark stays (rerun it with -replace): %w", err)
	}
	return rep, nil
}

// putMark marks dst as being restored from a, before anything else is
// written.
func putMark(ctx context.Context, dst Target, a *Archive, items int64) error {
	m := RestoreMark{Archive: a.path, Source: a.Manifest.Source, Created: a.Manifest.Created,
		Items: items, Started: time.Now().UTC()}
	raw, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := dst.For(storage.CoreNamespace).Put(ctx, markKey, raw); err != nil {
		return fmt.Errorf("backup: marking the store as being restored; nothing was restored: %w", err)
	}
	return nil
}

// Compare says what a restore of a into dst with o would meet, writing
// nothing: whether dst is empty, and if not, how it differs from what the
// restore would write (the migrator's verify, the archive as the source).
func Compare(ctx context.Context, a *Archive, dst Target, o RestoreOptions) (empty bool, cmp *migrate.VerifyReport, err error) {
	view := unmarked{dst}
	if empty, err = isEmpty(ctx, view); err != nil || empty {
		return empty, nil, err
	}
	cmp, err = against(ctx, sourceOf(a, o), view)
	return false, cmp, err
}

// against is how dst differs from the archive: the migrator's verify,
// the archive as the source.
func against(ctx context.Context, src storage.Walker, dst unmarked) (*migrate.VerifyReport, error) {
	cmp, err := migrate.Verify(ctx, src, dst, nil)
	if err != nil && !errors.Is(err, migrate.ErrDifferent) {
		return nil, fmt.Errorf("backup: comparing the store with the archive: %w", err)
	}
	return cmp, nil
}

// isEmpty reports whether p holds no item at all.
func isEmpty(ctx context.Context, p storage.Walker) (bool, error) {
	err := p.Walk(ctx, func(storage.Raw) error { return errStop })
	if err == errStop {
		return false, nil
	}
	return err == nil, err
}

// Refusal is ErrNotEmpty naming what a restore into a store that compares
// as cmp would overwrite and delete.
func Refusal(cmp *migrate.VerifyReport) error {
	var held, changed, extra, same int64
	for _, m := range cmp.Modules {
		held += m.Target
		changed += m.Changed
		extra += m.Extra
		same += m.Matched
	}
	var named []string
	for _, mm := range cmp.Mismatches {
		if mm.Kind != "missing" && len(named) < 5 {
			named = append(named, fmt.Sprintf("%s %s/%q", mm.Kind, mm.Namespace, mm.Key))
		}
	}
	return fmt.Errorf("%w: it holds %d items; the archive would overwrite %d that differ from it and, with -replace, delete %d it lacks (%d are as in the archive)%s. "+
		"Restore into an empty store, or rerun with -replace to make this one exactly the archive",
		ErrNotEmpty, held, changed, extra, same, listed(named))
}

// UnfinishedRefusal is ErrRestoreUnfinished naming the restore cut short
// and what the store lacks of the archive a, which compares as cmp.
func UnfinishedRefusal(m RestoreMark, cmp *migrate.VerifyReport) error {
	if cmp == nil { // the store holds nothing but the mark
		return unfinished(m, ": it holds none of the archive's items yet")
	}
	var missing, changed, extra int64
	for _, mc := range cmp.Modules {
		missing += mc.Missing
		changed += mc.Changed
		extra += mc.Extra
	}
	var named []string
	for _, mm := range cmp.Mismatches {
		if mm.Kind == "missing" && len(named) < 5 {
			named = append(named, fmt.Sprintf("%s/%q", mm.Namespace, mm.Key))
		}
	}
	return unfinished(m, fmt.Sprintf(": against this archive it lacks %d items, %d differ and %d are not in it%s",
		missing, changed, extra, strings.Replace(listed(named), "first:", "first missing:", 1)))
}

func listed(named []string) string {
	if len(named) == 0 {
		return ""
	}
	s := "; first: "
	for i, n := range named {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
