package backup

import (
	"context"
	"errors"
	"fmt"
	"io"

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
	Replace  bool
	Progress io.Writer // the migrator's progress lines; nil: none
}

// RestoreReport is what a restore did.
type RestoreReport struct {
	Copy        *migrate.Report
	Deleted     int64 // -replace: items the archive lacks, deleted
	Checkpoints int   // the migrator's checkpoints, restored as they were
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
func Restore(ctx context.Context, a *Archive, dst Target, o RestoreOptions) (*RestoreReport, error) {
	empty, err := isEmpty(ctx, dst)
	if err != nil {
		return nil, fmt.Errorf("backup: reading the store: %w", err)
	}
	if !empty && !o.Replace {
		_, cmp, err := Compare(ctx, a, dst)
		if err != nil {
			return nil, err
		}
		return nil, Refusal(cmp)
	}
	rep := &RestoreReport{}
	mo := migrate.Options{Progress: o.Progress}
	if empty {
		rep.Copy, err = migrate.Copy(ctx, a, dst, mo)
	} else {
		var m *migrate.MirrorReport
		if m, err = migrate.Mirror(ctx, a, dst, mo); m != nil {
			rep.Copy, rep.Deleted = m.Copy, m.Deleted
		}
	}
	if err == nil {
		rep.Checkpoints, err = restoreCheckpoints(ctx, a, dst)
	}
	if err != nil {
		return rep, fmt.Errorf("backup: the restore stopped part way; rerun it with -replace to finish: %w", err)
	}
	if rep.Verify, err = migrate.Verify(ctx, a, dst, o.Progress); err != nil {
		return rep, fmt.Errorf("backup: verifying the restore: %w", err)
	}
	return rep, nil
}

// Compare says what a restore of a into dst would meet, writing nothing:
// whether dst is empty, and if not, how it differs from the archive (the
// migrator's verify, the archive as the source).
func Compare(ctx context.Context, a *Archive, dst Target) (empty bool, cmp *migrate.VerifyReport, err error) {
	if empty, err = isEmpty(ctx, dst); err != nil || empty {
		return empty, nil, err
	}
	cmp, err = migrate.Verify(ctx, a, dst, nil)
	if err != nil && !errors.Is(err, migrate.ErrDifferent) {
		return false, nil, fmt.Errorf("backup: comparing the store with the archive: %w", err)
	}
	return false, cmp, nil
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
