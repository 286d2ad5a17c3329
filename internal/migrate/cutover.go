package migrate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// CutoverCheck is one namespace after the cutover has held: what the
// target holds against the source it was copied from.
type CutoverCheck struct {
	Matched int64
	// The runtime on the target changed these since the copy: fine.
	NewerOnTarget, CreatedOnTarget, DeletedOnTarget int64
	// These mean source data was lost or rolled back: failures.
	Missing, RolledBack int64
}

// OK reports whether nothing of the source was lost or rolled back.
func (c *CutoverCheck) OK() bool { return c.Missing == 0 && c.RolledBack == 0 }

// CutoverReport is VerifyAfterCutover's answer.
type CutoverReport struct {
	Since      time.Time
	Modules    map[string]*CutoverCheck
	Mismatches []Mismatch // the first failures
}

// ErrLost is returned when source data is missing from the target or was
// rolled back there.
var ErrLost = errors.New("migrate: source data was lost or rolled back on the target")

// ErrNoCheckpoint: the target holds no copy from this source.
var ErrNoCheckpoint = errors.New("migrate: the target has no copy from this source (no checkpoint); run the copy first")

type targetItem struct {
	sum       [32]byte
	updatedAt int64
}

// VerifyAfterCutover answers the operator's question once the target has
// served for a while: was anything of the source lost or rolled back? A
// target item newer than the source's, one created or deleted on the target
// since the last copy or mirror from source (the target's checkpoint of
// it), is reported as such, not as a failure. When the target was copied
// into the source since (a rollback), the source is no longer what the
// target was copied from, and it refuses (ErrWentBack). It holds the
// target's keys in memory (a hash and a time each).
func VerifyAfterCutover(ctx context.Context, src Source, dst Target, source, target string) (*CutoverReport, error) {
	t, err := readTransfers(ctx, src, dst, source, target)
	if err != nil {
		return nil, err
	}
	if t.into.IsZero() {
		return nil, ErrNoCheckpoint
	}
	if t.wentBack() {
		return nil, fmt.Errorf("%w: %s; this check compares %s with %s as that copy left it, which it no longer is. "+
			"After a rollback, check the rollback with --verify from %s to %s",
			ErrWentBack, t.explain(source, target), target, source, target, source)
	}
	since := t.into
	rep := &CutoverReport{Since: since, Modules: map[string]*CutoverCheck{}}
	mod := func(ns string) *CutoverCheck {
		m := rep.Modules[ns]
		if m == nil {
			m = &CutoverCheck{}
			rep.Modules[ns] = m
		}
		return m
	}
	held := map[[2]string]targetItem{}
	if err := dst.Walk(ctx, func(r storage.Raw) error {
		if r.Why() == "" && !isCheckpoint(r.Namespace, r.Key) {
			held[[2]string{r.Namespace, r.Key}] = targetItem{sha256.Sum256(r.Value), r.UpdatedAt}
		}
		return nil
	}); err != nil {
		return rep, fmt.Errorf("verify: reading the target: %w", err)
	}
	fail := func(ns, key, kind string) {
		if len(rep.Mismatches) < maxListed {
			rep.Mismatches = append(rep.Mismatches, Mismatch{ns, key, kind})
		}
	}
	err = src.Walk(ctx, func(r storage.Raw) error {
		if r.Why() != "" || isCheckpoint(r.Namespace, r.Key) {
			return nil
		}
		m := mod(r.Namespace)
		k := [2]string{r.Namespace, r.Key}
		h, found := held[k]
		delete(held, k)
		switch {
		case !found && r.UpdatedAt <= since.UnixNano():
			m.DeletedOnTarget++
		case !found:
			m.Missing++
			fail(r.Namespace, r.Key, "missing")
		case h.sum == sha256.Sum256(r.Value):
			m.Matched++
		case h.updatedAt > r.UpdatedAt:
			m.NewerOnTarget++
		default:
			m.RolledBack++
			fail(r.Namespace, r.Key, "rolled back")
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("verify: reading the source: %w", err)
	}
	for k := range held {
		mod(k[0]).CreatedOnTarget++
	}
	for _, m := range rep.Modules {
		if !m.OK() {
			return rep, ErrLost
		}
	}
	return rep, nil
}

// WriteTable prints one line per namespace and the first failures.
func (r *CutoverReport) WriteTable(w io.Writer) {
	names := make([]string, 0, len(r.Modules))
	for n := range r.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "since the last copy into the target, at %s:\n", stamp(r.Since))
	fmt.Fprintf(w, "%-24s %8s %8s %8s %8s %8s %8s  %s\n", "module", "same", "newer", "created", "deleted", "missing", "rolled", "status")
	bad := 0
	for _, n := range names {
		m := r.Modules[n]
		status := "ok"
		if !m.OK() {
			status, bad = "LOST", bad+1
		}
		fmt.Fprintf(w, "%-24s %8d %8d %8d %8d %8d %8d  %s\n", n, m.Matched, m.NewerOnTarget, m.CreatedOnTarget, m.DeletedOnTarget, m.Missing, m.RolledBack, status)
	}
	for _, mm := range r.Mismatches {
		fmt.Fprintf(w, "%s: %s/%q\n", mm.Kind, mm.Namespace, mm.Key)
	}
	if bad == 0 {
		fmt.Fprintf(w, "verify after cutover: nothing of the source lost or rolled back (%d modules)\n", len(names))
	} else {
		fmt.Fprintf(w, "verify after cutover: %d of %d modules lost source data\n", bad, len(names))
	}
}
