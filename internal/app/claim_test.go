package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

func TestAClaimIsTakenOnlyWhenItsWorkIsFree(t *testing.T) {
	const stale = 10 * time.Minute
	t0 := time.Unix(1_700_000_000, 0)
	cases := []struct {
		name   string
		before []byte                            // the stored record (nil: none)
		end    func(*app.Claim, time.Time) error // how an earlier taker ended (nil: it still runs)
		at     time.Duration                     // when the claim is tried, after t0
		take   bool
		damage bool // refused as a damaged item
	}{
		{name: "work never taken is free", take: true},
		{name: "work a live runner holds is not", end: nil, at: time.Minute},
		{name: "work whose runner went quiet for the staleness is free", end: nil, at: stale, take: true},
		{name: "finished work is never taken again", end: finish, at: 24 * time.Hour},
		{name: "released work is free at once", end: release, at: time.Second, take: true},
		{name: "a push marker sent before claims (empty) is finished", before: []byte{}, at: time.Hour},
		{name: "a push marker sending for the staleness is free", before: []byte(`{"state":"sending","at":1700000000000000000}`), at: stale, take: true},
		{name: "a record nobody can read is not risked, and is said damaged", before: []byte("?"), at: time.Hour, damage: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ctx := memory.New().For("claims"), t.Context()
			switch {
			case c.before != nil:
				if err := s.Put(ctx, "k", c.before); err != nil {
					t.Fatal(err)
				}
			case c.at > 0:
				first, err := app.TakeClaim(ctx, s, "k", t0, stale)
				if err != nil || first == nil {
					t.Fatalf("the first taker: %v, %v", first, err)
				}
				if c.end != nil {
					if err := c.end(first, t0); err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := app.TakeClaim(ctx, s, "k", t0.Add(c.at), stale)
			if errors.Is(err, storage.ErrUnreadable) != c.damage {
				t.Fatalf("TakeClaim: %v, want damaged %t", err, c.damage)
			}
			if c.damage {
				err = nil
			}
			if err != nil || (got != nil) != c.take {
				t.Fatalf("taken %t (%v), want %t", got != nil, err, c.take)
			}
		})
	}
}

func finish(c *app.Claim, now time.Time) error  { return c.Finish(context.Background(), now) }
func release(c *app.Claim, now time.Time) error { return c.Release(context.Background(), now) }
