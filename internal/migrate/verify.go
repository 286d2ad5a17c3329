package migrate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Target is what verification reads from the target.
type Target interface {
	storage.KVProvider
	storage.Walker
}

// ModuleCheck is one namespace's verification.
type ModuleCheck struct {
	Source, Target                   int64
	Matched, Missing, Changed, Extra int64
}

// OK reports whether the namespace is identical on both sides.
func (m *ModuleCheck) OK() bool {
	return m.Missing == 0 && m.Changed == 0 && m.Extra == 0 && m.Source == m.Target
}

// Mismatch is one difference found.
type Mismatch struct {
	Namespace, Key, Kind string // missing | changed | extra
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	Modules    map[string]*ModuleCheck
	Mismatches []Mismatch // the first ones of each kind
	Invalid    int64      // source items the key rules reject (never copied)
	// read is set once both sides were read to the end: only then is
	// "identical" a verdict rather than the absence of a reading.
	read bool
}

// Read reports whether the verify read both sides to the end, so that its
// table is a verdict.
func (r *VerifyReport) Read() bool { return r.read }

// ErrDifferent is returned when source and target differ.
var ErrDifferent = errors.New("migrate: source and target differ")

// Verify compares src and dst per module and per item, by SHA-256 digest of
// the value, streaming both sides:
//  1. every source item is looked up in the target (missing, changed);
//  2. the target is counted per module;
//  3. only for modules with more target items than matches, the source keys
//     of those modules are hashed into a set to name the extra items.
func Verify(ctx context.Context, src storage.Walker, dst Target, progressW io.Writer) (*VerifyReport, error) {
	if progressW == nil {
		progressW = io.Discard
	}
	rep := &VerifyReport{Modules: map[string]*ModuleCheck{}}
	mod := func(ns string) *ModuleCheck {
		m := rep.Modules[ns]
		if m == nil {
			m = &ModuleCheck{}
			rep.Modules[ns] = m
		}
		return m
	}
	// Per kind: a thousand missing items must not hide the one changed.
	listed := map[string]int{}
	note := func(ns, key, kind string) {
		if listed[kind] < maxListed {
			listed[kind]++
			rep.Mismatches = append(rep.Mismatches, Mismatch{ns, key, kind})
		}
	}

	p := newProgress(progressW, 2*time.Second, "verify")
	var n int64
	err := src.Walk(ctx, func(r storage.Raw) error {
		n++
		p.tick(n)
		if isCheckpoint(r.Namespace, r.Key) {
			return nil
		}
		if r.Why() != "" {
			rep.Invalid++
			return nil
		}
		m := mod(r.Namespace)
		m.Source++
		got, err := dst.For(r.Namespace).Get(ctx, r.Key)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			m.Missing++
			note(r.Namespace, r.Key, "missing")
		case err != nil:
			return err
		case sha256.Sum256(got) != sha256.Sum256(r.Value):
			m.Changed++
			note(r.Namespace, r.Key, "changed")
		default:
			m.Matched++
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("verify: reading the source: %w", err)
	}

	if err := dst.Walk(ctx, func(r storage.Raw) error {
		if !isCheckpoint(r.Namespace, r.Key) {
			mod(r.Namespace).Target++
		}
		return nil
	}); err != nil {
		return rep, fmt.Errorf("verify: reading the target: %w", err)
	}

	suspects := map[string]bool{}
	for ns, m := range rep.Modules {
		if m.Target > m.Matched+m.Changed {
			suspects[ns] = true
		}
	}
	if len(suspects) > 0 {
		if err := findExtras(ctx, src, dst, suspects, rep, note); err != nil {
			return rep, err
		}
	}
	rep.read = true
	for _, m := range rep.Modules {
		if !m.OK() {
			return rep, ErrDifferent
		}
	}
	return rep, nil
}

func keyHash(ns, key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(ns))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return h.Sum64()
}

// findExtras names target items of the suspect modules that the source
// lacks. Its set holds 8 bytes per source item of those modules only.
func findExtras(ctx context.Context, src storage.Walker, dst storage.Walker, suspects map[string]bool, rep *VerifyReport, note func(ns, key, kind string)) error {
	have := map[uint64]struct{}{}
	if err := src.Walk(ctx, func(r storage.Raw) error {
		if suspects[r.Namespace] {
			have[keyHash(r.Namespace, r.Key)] = struct{}{}
		}
		return nil
	}); err != nil {
		return fmt.Errorf("verify: rereading the source: %w", err)
	}
	return dst.Walk(ctx, func(r storage.Raw) error {
		if !suspects[r.Namespace] || isCheckpoint(r.Namespace, r.Key) {
			return nil
		}
		if _, ok := have[keyHash(r.Namespace, r.Key)]; !ok {
			rep.Modules[r.Namespace].Extra++
			note(r.Namespace, r.Key, "extra")
		}
		return nil
	})
}

// WriteTable prints the per-module table and the first mismatches.
func (r *VerifyReport) WriteTable(w io.Writer) {
	names := make([]string, 0, len(r.Modules))
	for n := range r.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "%-32s %9s %9s %9s %9s %9s  %s\n", "module", "source", "target", "missing", "changed", "extra", "status")
	bad := 0
	for _, n := range names {
		m := r.Modules[n]
		status := "ok"
		if !m.OK() {
			status, bad = "DIFFERENT", bad+1
		}
		fmt.Fprintf(w, "%-32s %9d %9d %9d %9d %9d  %s\n", n, m.Source, m.Target, m.Missing, m.Changed, m.Extra, status)
	}
	for _, mm := range r.Mismatches {
		fmt.Fprintf(w, "%s: %s/%q\n", mm.Kind, mm.Namespace, mm.Key)
	}
	if r.Invalid > 0 {
		fmt.Fprintf(w, "note: %d source items break the key rules and were not compared\n", r.Invalid)
	}
	switch {
	case !r.read:
		fmt.Fprintln(w, "verify: unfinished: a side could not be read to the end, so this is no verdict")
	case bad == 0:
		fmt.Fprintf(w, "verify: identical (%d modules)\n", len(names))
	default:
		fmt.Fprintf(w, "verify: %d of %d modules differ\n", bad, len(names))
	}
}
