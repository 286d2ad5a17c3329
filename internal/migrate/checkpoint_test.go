package migrate_test

import (
	"errors"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// transfer is one run of the migrator between stores a and b.
type transfer struct {
	mirror, dryRun, overwrite bool
	from, to                  string // "a" or "b"
}

func (tr transfer) run(t *testing.T, c *clock, stores map[string]*memory.Provider) error {
	t.Helper()
	o := migrate.Options{Source: tr.from, Target: tr.to, DryRun: tr.dryRun, Overwrite: tr.overwrite, Now: c.now}
	src, dst := stores[tr.from], stores[tr.to]
	if tr.mirror {
		_, err := migrate.Mirror(t.Context(), src, dst, o)
		return err
	}
	_, err := migrate.Copy(t.Context(), src, dst, o)
	return err
}

func TestAPlainCopyRefusesWhenTheTargetWasLastCopiedIntoTheSource(t *testing.T) {
	copyAB, copyBA := transfer{from: "a", to: "b"}, transfer{from: "b", to: "a"}
	mirrorAB, mirrorBA := transfer{mirror: true, from: "a", to: "b"}, transfer{mirror: true, from: "b", to: "a"}
	tests := []struct {
		name    string
		before  []transfer
		run     transfer // from a to b
		refuses bool
	}{
		{"the first copy between two stores runs", nil, copyAB, false},
		{"a rerun of the copy runs", []transfer{copyAB}, copyAB, false},
		{"a copy after a mirror the same way runs", []transfer{mirrorAB}, copyAB, false},
		{"a copy back after a copy (a reverse copy after a cutover) refuses", []transfer{copyBA}, copyAB, true},
		{"a copy back after a mirror refuses", []transfer{mirrorBA}, copyAB, true},
		{"a copy after a rollback mirror (a second cutover) refuses", []transfer{copyAB, mirrorBA}, copyAB, true},
		{"a copy after the second cutover's mirror runs", []transfer{copyAB, mirrorBA, mirrorAB}, copyAB, false},
		{"--overwrite refuses alike: it deletes nothing either", []transfer{copyBA}, transfer{overwrite: true, from: "a", to: "b"}, true},
		{"a dry run says it would refuse", []transfer{copyBA}, transfer{dryRun: true, from: "a", to: "b"}, true},
		{"a dry-run mirror moves no checkpoint", []transfer{copyBA, {mirror: true, dryRun: true, from: "a", to: "b"}}, copyAB, true},
		{"a mirror runs whichever way data last went", []transfer{copyBA}, mirrorAB, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			stores := map[string]*memory.Provider{"a": seeded(t, 3), "b": seeded(t, 3)}
			for _, tr := range tt.before {
				if err := tr.run(t, c, stores); err != nil {
					t.Fatalf("before: %+v: %v", tr, err)
				}
			}
			err := tt.run.run(t, c, stores)
			if refused := errors.Is(err, migrate.ErrWentBack); refused != tt.refuses || (err != nil && !refused) {
				t.Fatalf("run = %v; want refused: %v", err, tt.refuses)
			}
		})
	}
}

func TestOnlyACompletedCopyOrMirrorMovesTheTargetsCheckpoint(t *testing.T) {
	tests := []struct {
		name  string
		run   func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error
		moves bool
	}{
		{"a copy", func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error {
			_, err := migrate.Copy(t.Context(), src, dst, o)
			return err
		}, true},
		{"a mirror", func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error {
			_, err := migrate.Mirror(t.Context(), src, dst, o)
			return err
		}, true},
		{"a dry-run copy", func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error {
			o.DryRun = true
			_, err := migrate.Copy(t.Context(), src, dst, o)
			return err
		}, false},
		{"a dry-run mirror", func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error {
			o.DryRun = true
			_, err := migrate.Mirror(t.Context(), src, dst, o)
			return err
		}, false},
		{"a copy whose load failed", func(t *testing.T, o migrate.Options, src, dst *memory.Provider) error {
			if _, err := migrate.Copy(t.Context(), src, &gatedLoads{Destination: dst, failAt: 1}, o); err == nil {
				t.Fatal("the failing copy succeeded")
			}
			return nil
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			src, dst := seeded(t, 3), memory.New()
			o := migrate.Options{Source: "a", Target: "b", Now: c.now}
			if _, err := migrate.Copy(t.Context(), src, dst, o); err != nil {
				t.Fatal(err)
			}
			first := c.at
			if err := tt.run(t, o, src, dst); err != nil {
				t.Fatal(err)
			}
			rep, err := migrate.VerifyAfterCutover(t.Context(), src, dst, "a", "b")
			if err != nil {
				t.Fatal(err)
			}
			want := first
			if tt.moves {
				want = first.Add(time.Second) // the run's start, the next reading
			}
			if !rep.Since.Equal(want) {
				t.Fatalf("checkpoint at %s; want %s (moves: %v)", rep.Since, want, tt.moves)
			}
		})
	}
}
