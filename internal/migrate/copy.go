// Package migrate moves every item from one storage backend to another and
// verifies the result item by item. It streams: memory does not grow with
// the number of items. Items are written with the target provider's own
// encoding (its Load), UpdatedAt preserved.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Options tune a copy.
type Options struct {
	DryRun      bool // count and measure, write nothing
	SkipInvalid bool // report invalid items and carry on, instead of failing
	// Overwrite replaces target items that are newer than the source's;
	// without it they are kept (and counted), and items deleted on the
	// target since the last copy from this source are not brought back.
	Overwrite bool
	// Source and Target name the two stores as the tool describes them
	// ("dynamodb table miti99bot"), for the checkpoints (checkpoint.go):
	// both or neither; neither: no checkpoint is read or written.
	Source, Target string
	// Now is the clock of the checkpoints (default time.Now).
	Now       func() time.Time
	BatchSize int // items per Load call (default 2500)
	Progress  io.Writer
	Every     time.Duration // progress interval (default 2 s)

	mirror bool // a mirror's copy: it neither refuses nor moves the checkpoint
}

// Source is what a copy reads: every item by walking, and the source's own
// checkpoint of the target by key.
type Source interface {
	storage.Walker
	storage.KVProvider
}

// Destination is what a copy writes to: a provider that loads in bulk.
type Destination interface {
	storage.KVProvider
	storage.Loader
}

// ModuleStats counts one namespace.
type ModuleStats struct {
	Items, Bytes int64
}

// Report is what a copy did.
type Report struct {
	Modules            map[string]*ModuleStats
	Read               int64
	Written, Unchanged int64
	KeptNewer          int64         // target items newer than the source's: kept
	Deleted            int64         // deleted on the target since the last copy into it: not brought back
	Since              time.Time     // when that copy started
	Invalid            []storage.Raw // the first ones, for the report
	InvalidCount       int64
	Elapsed            time.Duration
}

const maxListed = 20

// ErrInvalidItems fails a copy that found items the target cannot hold.
var ErrInvalidItems = errors.New("migrate: the source holds items that break the key rules")

func (o *Options) defaults() {
	if o.BatchSize <= 0 {
		o.BatchSize = 2500
	}
	if o.Every <= 0 {
		o.Every = 2 * time.Second
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Copy streams src into dst. Unless SkipInvalid is set, it first scans the
// source for items that break the key rules and, if any, fails before
// writing anything: a partial migration is worse than none. Without
// Overwrite a rerun is safe on a target that took writes since: newer
// target items are kept, and (with Source and Target) items the target
// deleted since the last copy from that source stay deleted.
//
// With Source and Target, a copy refuses (ErrWentBack, before it reads or
// writes an item) when the target was copied into the source since the
// source was last copied into it: only Mirror carries the source's
// deletions then. A successful copy moves the target's checkpoint of the
// source to the copy's start. The report is nil when the copy ended before
// reading an item.
func Copy(ctx context.Context, src Source, dst Destination, o Options) (*Report, error) {
	o.defaults()
	rep := &Report{Modules: map[string]*ModuleStats{}}
	began := o.Now()
	load := storage.LoadOptions{Overwrite: o.Overwrite}
	if (o.Source == "") != (o.Target == "") {
		return nil, errors.New("migrate: Options.Source and Options.Target name the checkpoints together: set both or neither")
	}
	checkpoints := o.Source != "" && dst != nil
	if checkpoints {
		t, err := readTransfers(ctx, src, dst, o.Source, o.Target)
		if err != nil {
			return nil, err
		}
		if t.wentBack() && !o.mirror {
			return nil, refuseCopy(t, o.Source, o.Target)
		}
		if !t.into.IsZero() {
			load.Since, rep.Since = t.into.UnixNano(), t.into
		}
	}
	if !o.SkipInvalid && !o.DryRun {
		pre, err := Copy(ctx, src, nil, Options{DryRun: true, SkipInvalid: true, Every: o.Every})
		if err != nil {
			return pre, err
		}
		if pre.InvalidCount > 0 {
			return pre, fmt.Errorf("%w: %d invalid (listed above); nothing was written. Fix them, or rerun with --skip-invalid", ErrInvalidItems, pre.InvalidCount)
		}
	}
	start := time.Now()
	p := newProgress(o.Progress, o.Every, "copy")
	w := startWriter(ctx, dst, load, rep, o.DryRun)
	batch := make([]storage.Item, 0, o.BatchSize)
	err := src.Walk(ctx, func(r storage.Raw) error {
		if isCheckpoint(r.Namespace, r.Key) {
			return nil // the migrator's own, of an earlier copy into src
		}
		rep.Read++
		p.tick(rep.Read)
		if why := r.Why(); why != "" {
			rep.InvalidCount++
			if len(rep.Invalid) < maxListed {
				r.Problem = why
				r.Value = nil
				rep.Invalid = append(rep.Invalid, r)
			}
			return nil
		}
		m := rep.Modules[r.Namespace]
		if m == nil {
			m = &ModuleStats{}
			rep.Modules[r.Namespace] = m
		}
		m.Items++
		m.Bytes += int64(len(r.Value))
		batch = append(batch, r.Item)
		if len(batch) >= o.BatchSize {
			var err error
			batch, err = w.write(batch)
			return err
		}
		return nil
	})
	if err == nil {
		_, err = w.write(batch)
	}
	if werr := w.close(); err == nil {
		err = werr
	}
	if err == nil && !o.DryRun && checkpoints && !o.mirror {
		err = moveCheckpoint(ctx, dst, o.Source, began)
	}
	rep.Elapsed = time.Since(start)
	p.done(rep.Read)
	if err != nil {
		// No "migrate:" here: the command prints its name once, and a
		// wrapped error of this package may carry it already.
		return rep, fmt.Errorf("stopped after %d items: %w", rep.Read, err)
	}
	return rep, nil
}

// WriteSummary prints the per-module table and the totals.
func (r *Report) WriteSummary(w io.Writer, dryRun bool) {
	names := make([]string, 0, len(r.Modules))
	for n := range r.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "%-32s %10s %14s\n", "module", "items", "bytes")
	for _, n := range names {
		fmt.Fprintf(w, "%-32s %10d %14d\n", n, r.Modules[n].Items, r.Modules[n].Bytes)
	}
	for _, inv := range r.Invalid {
		fmt.Fprintf(w, "invalid: %s/%q: %s\n", inv.Namespace, inv.Key, inv.Problem)
	}
	if more := r.InvalidCount - int64(len(r.Invalid)); more > 0 {
		fmt.Fprintf(w, "invalid: ... and %d more\n", more)
	}
	rate := float64(r.Read) / max(r.Elapsed.Seconds(), 1e-9)
	switch {
	case dryRun:
		fmt.Fprintf(w, "dry run: %d items read, %d invalid, nothing written (%.0f items/s)\n", r.Read, r.InvalidCount, rate)
	case r.Written == 0:
		fmt.Fprintf(w, "done: %d items read, nothing to change: the target already matches (%d invalid skipped, %.0f items/s)\n", r.Read, r.InvalidCount, rate)
	default:
		fmt.Fprintf(w, "done: %d items read, %d written, %d already up to date, %d invalid skipped (%.0f items/s)\n", r.Read, r.Written, r.Unchanged, r.InvalidCount, rate)
	}
	switch {
	case r.Since.IsZero() && r.KeptNewer > 0:
		// No copy into the target before: nothing to date, and nothing
		// deleted since one.
		fmt.Fprintf(w, "kept: %d target items newer than the source's (--overwrite replaces them)\n", r.KeptNewer)
	case r.KeptNewer > 0 || r.Deleted > 0:
		fmt.Fprintf(w, "kept: %d target items newer than the source's; %d deleted on the target since the last copy into it (%s) stay deleted (--overwrite replaces both)\n",
			r.KeptNewer, r.Deleted, stamp(r.Since))
	}
}
