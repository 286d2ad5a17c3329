package migrate_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// store is a runtime's store as the migrator sees it.
type store interface {
	migrate.Source
	migrate.MirrorTarget
}

// clock is the one clock of a test: the runtimes stamp their writes with it
// and the migrator its checkpoints, each reading a second after the last,
// as synchronised clocks would.
type clock struct{ at time.Time }

func newClock() *clock { return &clock{at: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.at = c.at.Add(time.Second)
	return c.at
}

// life drives two stores through a bot's life: users write and delete on
// whichever one serves, the operator copies, mirrors and verifies between
// them. want is what the users expect the serving store to hold.
type life struct {
	t     *testing.T
	clock *clock
	names map[store]string
	want  map[string]string // "namespace/key" -> value
}

func newLife(t *testing.T, names map[store]string) *life {
	return &life{t: t, clock: newClock(), names: names, want: map[string]string{}}
}

// write is a user's write on the serving store, stamped by the clock.
func (l *life) write(p store, ns, key, val string) {
	l.t.Helper()
	it := storage.Item{Namespace: ns, Key: key, Value: []byte(val), UpdatedAt: l.clock.now().UnixNano()}
	if _, err := p.Load(l.t.Context(), []storage.Item{it}, storage.LoadOptions{Overwrite: true}); err != nil {
		l.t.Fatal(err)
	}
	l.want[ns+"/"+key] = val
}

// remove is a user's deletion on the serving store (an unsubscribe).
func (l *life) remove(p store, ns, key string) {
	l.t.Helper()
	if err := p.For(ns).Delete(l.t.Context(), key); err != nil {
		l.t.Fatal(err)
	}
	delete(l.want, ns+"/"+key)
}

func (l *life) options(src, dst store) migrate.Options {
	return migrate.Options{Source: l.names[src], Target: l.names[dst], Now: l.clock.now}
}

func (l *life) copy(src, dst store) (*migrate.Report, error) {
	return migrate.Copy(l.t.Context(), src, dst, l.options(src, dst))
}

// mirror runs the mirror and checks that the target is now exactly the
// source and exactly what the users expect.
func (l *life) mirror(src, dst store) {
	l.t.Helper()
	if _, err := migrate.Mirror(l.t.Context(), src, dst, l.options(src, dst)); err != nil {
		l.t.Fatalf("mirror %s -> %s: %v", l.names[src], l.names[dst], err)
	}
	l.exact(src, dst)
}

// exact checks that dst is an exact copy of src (--verify) and that it holds
// what the users expect: nothing lost, nothing brought back.
func (l *life) exact(src, dst store) {
	l.t.Helper()
	if rep, err := migrate.Verify(l.t.Context(), src, dst, nil); err != nil {
		l.t.Fatalf("verify %s -> %s: %v %+v", l.names[src], l.names[dst], err, rep.Mismatches)
	}
	l.holds(dst)
}

// holds checks that p holds exactly what the users expect.
func (l *life) holds(p store) {
	l.t.Helper()
	got := map[string]string{}
	if err := p.Walk(l.t.Context(), func(r storage.Raw) error {
		if r.Namespace != storage.CoreNamespace || !strings.HasPrefix(r.Key, "migrate:since:") {
			got[r.Namespace+"/"+r.Key] = string(r.Value)
		}
		return nil
	}); err != nil {
		l.t.Fatal(err)
	}
	if maps.Equal(got, l.want) {
		return
	}
	var lost, back []string
	for k, v := range l.want {
		if got[k] != v {
			lost = append(lost, k)
		}
	}
	for k := range got {
		if _, ok := l.want[k]; !ok {
			back = append(back, k)
		}
	}
	slices.Sort(lost)
	slices.Sort(back)
	l.t.Fatalf("%s: lost or stale %q, resurrected %q", l.names[p], lost, back)
}

// refused checks that a plain copy refuses and names the mirror onto dst.
func (l *life) refused(src, dst store) {
	l.t.Helper()
	_, err := l.copy(src, dst)
	if want := `--mirror --confirm-target "` + l.names[dst] + `"`; !errors.Is(err, migrate.ErrWentBack) || !strings.Contains(err.Error(), want) {
		l.t.Fatalf("plain copy %s -> %s = %v; want %v naming %s", l.names[src], l.names[dst], err, migrate.ErrWentBack, want)
	}
}

// afterCutover runs the after-cutover check, which must pass, and returns
// its counts summed over the namespaces.
func (l *life) afterCutover(src, dst store) migrate.CutoverCheck {
	l.t.Helper()
	rep, err := migrate.VerifyAfterCutover(l.t.Context(), src, dst, l.names[src], l.names[dst])
	if err != nil {
		l.t.Fatalf("after the cutover %s -> %s: %v", l.names[src], l.names[dst], err)
	}
	var sum migrate.CutoverCheck
	for _, m := range rep.Modules {
		sum.Matched += m.Matched
		sum.NewerOnTarget += m.NewerOnTarget
		sum.CreatedOnTarget += m.CreatedOnTarget
		sum.DeletedOnTarget += m.DeletedOnTarget
	}
	return sum
}
