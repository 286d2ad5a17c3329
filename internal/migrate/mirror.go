package migrate

import (
	"context"
	"fmt"
	"io"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// MirrorTarget is what a mirror writes to and deletes from.
type MirrorTarget interface {
	Destination
	storage.Walker
}

// MirrorReport is what a mirror did (or, dry, would do).
type MirrorReport struct {
	Copy       *Report
	Deleted    int64
	Deletions  []Mismatch // the first ones
	WouldCheck bool       // a dry run: nothing was written or deleted
}

// Mirror makes dst exactly src, for a rollback or a cutover onto a store
// that holds an earlier one's data: every source item is copied over
// whatever the target holds (newer or not), and every target item the
// source lacks is deleted, so what users deleted on the source stays
// deleted. With DryRun it only lists what it would delete. It runs
// whichever way data last went; once it has completed it moves the
// target's checkpoint of the source (with Source and Target) to its start.
// The report is nil when the mirror ended before reading an item.
func Mirror(ctx context.Context, src Source, dst MirrorTarget, o Options) (*MirrorReport, error) {
	o.defaults()
	o.Overwrite, o.mirror = true, true
	began := o.Now()
	rep := &MirrorReport{WouldCheck: o.DryRun}
	cp, err := Copy(ctx, src, dst, o)
	if cp == nil {
		return nil, err
	}
	rep.Copy = cp
	if err != nil {
		return rep, err
	}
	have := map[uint64]struct{}{}
	if err := src.Walk(ctx, func(r storage.Raw) error {
		have[keyHash(r.Namespace, r.Key)] = struct{}{}
		return nil
	}); err != nil {
		return rep, fmt.Errorf("mirror: rereading the source: %w", err)
	}
	var extra []storage.Raw
	if err := dst.Walk(ctx, func(r storage.Raw) error {
		if _, ok := have[keyHash(r.Namespace, r.Key)]; !ok && !isCheckpoint(r.Namespace, r.Key) {
			r.Value = nil
			extra = append(extra, r)
		}
		return nil
	}); err != nil {
		return rep, fmt.Errorf("mirror: reading the target: %w", err)
	}
	for _, r := range extra {
		if len(rep.Deletions) < maxListed {
			rep.Deletions = append(rep.Deletions, Mismatch{r.Namespace, r.Key, "delete"})
		}
		if o.DryRun {
			rep.Deleted++
			continue
		}
		if err := dst.For(r.Namespace).Delete(ctx, r.Key); err != nil {
			return rep, fmt.Errorf("mirror: delete %s/%q: %w", r.Namespace, r.Key, err)
		}
		rep.Deleted++
	}
	if !o.DryRun && o.Source != "" {
		if err := moveCheckpoint(ctx, dst, o.Source, began); err != nil {
			return rep, fmt.Errorf("mirror: %w", err)
		}
	}
	return rep, nil
}

// WriteSummary prints the copy's summary and the deletions.
func (r *MirrorReport) WriteSummary(w io.Writer) {
	if r.Copy != nil {
		r.Copy.WriteSummary(w, r.WouldCheck)
	}
	verb := "deleted"
	if r.WouldCheck {
		verb = "would delete"
	}
	for _, d := range r.Deletions {
		fmt.Fprintf(w, "%s: %s/%q\n", verb, d.Namespace, d.Key)
	}
	if more := r.Deleted - int64(len(r.Deletions)); more > 0 {
		fmt.Fprintf(w, "%s: ... and %d more\n", verb, more)
	}
	fmt.Fprintf(w, "mirror: %s %d target items the source lacks\n", verb, r.Deleted)
}
