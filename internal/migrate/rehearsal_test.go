package migrate_test

import (
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
)

// TestCutoverRollbackCutoverRollbackLosesAndResurrectsNothing runs the
// runbook (docs/cutover.md) twice each way between DynamoDB and each
// container store, with users writing and deleting on whichever side serves
// in every phase. After every copy and mirror the target holds exactly what
// the users expect, every exact verify passes, and every after-cutover
// check measures from the transfer that started the phase.
func TestCutoverRollbackCutoverRollbackLosesAndResurrectsNothing(t *testing.T) {
	containers := []struct {
		name string
		open func(t *testing.T) store
	}{
		{"mongodb", func(t *testing.T) store { return backendtest.Mongo(t) }},
		{"bolt", func(t *testing.T) store { return backendtest.Bolt(t) }},
	}
	for _, c := range containers {
		t.Run(c.name, func(t *testing.T) {
			lambda := store(backendtest.Dynamo(t))
			container := c.open(t)
			l := newLife(t, map[store]string{lambda: "dynamodb table lambda", container: c.name + " container"})

			// Lambda serves: two portfolios, three subscriptions, one ended.
			l.write(lambda, "coin", "portfolio:1", "cash=1000")
			l.write(lambda, "coin", "portfolio:2", "cash=20")
			l.write(lambda, "lolschedule", "sub:-100", "on")
			l.write(lambda, "lolschedule", "sub:-200", "on")
			l.write(lambda, "lolschedule", "sub:-300", "on")
			l.remove(lambda, "lolschedule", "sub:-300")

			// Cutover 1: the plain copy onto an empty store is exact.
			if _, err := l.copy(lambda, container); err != nil {
				t.Fatalf("cutover 1: %v", err)
			}
			l.exact(lambda, container)

			// The container serves: a trade, a new portfolio, an unsubscribe.
			l.write(container, "coin", "portfolio:1", "cash=5000")
			l.write(container, "coin", "portfolio:3", "cash=7")
			l.remove(container, "lolschedule", "sub:-100")
			if got, want := l.afterCutover(lambda, container), (migrate.CutoverCheck{Matched: 2, NewerOnTarget: 1, CreatedOnTarget: 1, DeletedOnTarget: 1}); got != want {
				t.Fatalf("after cutover 1: %+v, want %+v", got, want)
			}
			// A Lambda invocation still in flight wrote after the copy: a
			// rerun carries it over, and once the container deletes it, the
			// next rerun leaves it deleted (the rerun moved the checkpoint).
			l.write(lambda, "lolschedule", "sub:-600", "on")
			if rep, err := l.copy(lambda, container); err != nil || rep.Written != 1 || rep.KeptNewer != 1 || rep.Deleted != 1 {
				t.Fatalf("a rerun of cutover 1's copy: %+v, %v; want 1 written, 1 kept newer, 1 left deleted", rep, err)
			}
			l.holds(container)
			l.remove(container, "lolschedule", "sub:-600")
			if rep, err := l.copy(lambda, container); err != nil || rep.Written != 0 || rep.Deleted != 2 {
				t.Fatalf("a second rerun of cutover 1's copy: %+v, %v; want nothing written, 2 left deleted", rep, err)
			}
			l.holds(container)

			// Rollback 1: a plain reverse copy would keep sub:-100; the mirror.
			l.refused(container, lambda)
			l.mirror(container, lambda)

			// Lambda serves: it changes container-era data, deletes
			// pre-cutover data, subscribes one chat and unsubscribes another.
			l.write(lambda, "coin", "portfolio:3", "cash=8")
			l.remove(lambda, "coin", "portfolio:2")
			l.write(lambda, "lolschedule", "sub:-400", "on")
			l.remove(lambda, "lolschedule", "sub:-200")

			// Cutover 2: the container store still holds portfolio:2 and
			// sub:-200; a plain copy would keep them, so it refuses.
			l.refused(lambda, container)
			l.mirror(lambda, container)
			if got, want := l.afterCutover(lambda, container), (migrate.CutoverCheck{Matched: 3}); got != want {
				t.Fatalf("right after cutover 2: %+v, want %+v", got, want)
			}

			// The container serves: it deletes what Lambda wrote after
			// rollback 1 (newer than cutover 1), trades, subscribes.
			l.remove(container, "lolschedule", "sub:-400")
			l.remove(container, "coin", "portfolio:3")
			l.write(container, "coin", "portfolio:1", "cash=6000")
			l.write(container, "lolschedule", "sub:-500", "on")
			if got, want := l.afterCutover(lambda, container), (migrate.CutoverCheck{NewerOnTarget: 1, CreatedOnTarget: 1, DeletedOnTarget: 2}); got != want {
				t.Fatalf("after cutover 2: %+v, want %+v (measured from cutover 2, not 1)", got, want)
			}
			if rep, err := l.copy(lambda, container); err != nil || rep.KeptNewer != 1 || rep.Deleted != 2 {
				t.Fatalf("a rerun of cutover 2's copy: %+v, %v; want 1 kept newer, 2 left deleted", rep, err)
			}
			l.holds(container)

			// Rollback 2.
			l.refused(container, lambda)
			l.mirror(container, lambda)
			if _, err := migrate.VerifyAfterCutover(t.Context(), lambda, container, l.names[lambda], l.names[container]); !errors.Is(err, migrate.ErrWentBack) {
				t.Fatalf("the after-cutover check once rolled back = %v, want %v", err, migrate.ErrWentBack)
			}

			// Lambda serves; the next cutover needs the mirror again.
			l.remove(lambda, "lolschedule", "sub:-500")
			l.write(lambda, "coin", "portfolio:4", "cash=1")
			l.refused(lambda, container)
			l.mirror(lambda, container)
		})
	}
}
