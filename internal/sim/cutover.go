package sim

import (
	"context"
	"errors"
	"strings"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// endpoint is what the migrator needs of a store, either way.
type endpoint interface {
	storage.KVProvider
	storage.Walker
	storage.Loader
}

func (l *life) endpoint(b Backend) endpoint {
	e, ok := b.KVProvider.(endpoint)
	if !ok {
		l.t.Fatalf("sim: %s (%T) cannot be migrated", b.Name, b.KVProvider)
	}
	return e
}

// move takes the bot to the other side with the real migrator, as
// docs/cutover.md's operator does. Forward (from Home): the copy, which
// must refuse after a rollback and name the mirror, which then runs.
// Back (from Far), the rollback: first the after-cutover check (nothing of
// Home lost on Far), then the mirror, its dry run first. Either way the
// copy is verified identical, then the bot starts on the other side. The
// operator acts between two steps: the schedules are paused and Telegram
// holds updates meanwhile (no time passes in the life).
func (l *life) move() {
	ctx := context.Background()
	fi, ti := l.op.on, 1-l.op.on
	from, to := l.op.sides[fi], l.op.sides[ti]
	src, dst := l.endpoint(from), l.endpoint(to)
	back := fi == 1
	kind := map[bool]string{false: "cutover", true: "rollback"}[back]
	opts := migrate.Options{Source: from.Name, Target: to.Name}
	// The data last went to -> from when the last transfer into from is
	// the later one: a copy cannot carry from's deletions then.
	wentBack := l.op.lastInto[fi] > l.op.lastInto[ti]
	l.op.moves++
	l.stopDeployment()
	if back && l.op.Careless {
		if _, err := migrate.Copy(ctx, src, dst, migrate.Options{Overwrite: true}); err != nil {
			l.t.Fatal(err)
		}
		l.switchTo(ti, kind)
		return
	}
	l.preflight(from, to)
	rep, err := migrate.Copy(ctx, src, dst, opts)
	if err == nil {
		l.hist.op("  copy: %d items read, %d written", rep.Read, rep.Written)
	}
	refused := errors.Is(err, migrate.ErrWentBack) && strings.Contains(err.Error(), `--mirror --confirm-target "`+to.Name+`"`)
	switch {
	case back && !refused:
		l.fail("operator", "rollback: a plain copy back must refuse and name the mirror; it said %v", err)
	case back:
		if _, err := migrate.VerifyAfterCutover(ctx, dst, src, to.Name, from.Name); err != nil {
			l.fail("operator", "rollback: the after-cutover check before it: %v", err)
		}
	case wentBack && !refused:
		l.fail("operator", "cutover after a rollback: the copy must refuse and name the mirror; it said %v", err)
	case !wentBack && err != nil:
		l.fail("operator", "cutover: the copy: %v", err)
	}
	if back || wentBack {
		dry, err := migrate.Mirror(ctx, src, dst, migrate.Options{Source: from.Name, Target: to.Name, DryRun: true})
		if err != nil {
			l.fail("operator", "%s: the mirror's dry run: %v", kind, err)
		}
		rep, err := migrate.Mirror(ctx, src, dst, opts)
		if err != nil {
			l.fail("operator", "%s: the mirror: %v", kind, err)
		}
		if rep.Deleted != dry.Deleted {
			l.fail("operator", "%s: the mirror deleted %d items, its dry run listed %d", kind, rep.Deleted, dry.Deleted)
		}
		l.hist.op("  mirror: %d items read, %d deleted", rep.Copy.Read, rep.Deleted)
		l.hist.count("mirrors", 1)
	}
	l.verify(kind, src, dst)
	l.op.lastInto[ti] = l.op.moves
	l.hist.count(kind+"s", 1)
	l.switchTo(ti, kind)
	if back {
		if _, err := migrate.VerifyAfterCutover(ctx, dst, src, to.Name, from.Name); !errors.Is(err, migrate.ErrWentBack) {
			l.fail("operator", "after the rollback the after-cutover check must refuse; it said %v", err)
		}
	}
}

// verify is the migrator's verify, which must say identical.
func (l *life) verify(event string, src storage.Walker, dst migrate.Target) {
	rep, err := migrate.Verify(context.Background(), src, dst, nil)
	if err != nil {
		l.fail("operator", "%s: verify: %v %v", event, err, rep.Mismatches)
		return
	}
	n := int64(0)
	for _, m := range rep.Modules {
		n += m.Source
	}
	l.hist.op("  verify: identical, %d items in %d namespaces", n, len(rep.Modules))
}
