package storagetest_test

import (
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

// An armed conditional delete fails as a timed-out call does: it deleted
// or not as armed, and its caller cannot tell which.
func TestAnArmedConditionalDeleteIsUnheardAndLandsOnlyWhenArmedTo(t *testing.T) {
	for _, c := range []struct {
		name     string
		land     bool
		wantGone bool
	}{
		{"armed to land: deleted", true, true},
		{"armed not to land: kept", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			u := storagetest.NewUnheard(memory.New())
			s := u.For("timers")
			if err := s.Put(ctx, "t1", []byte("armed")); err != nil {
				t.Fatal(err)
			}
			u.Arm("timers", "t", c.land)
			if err := s.CompareAndDelete(ctx, "t1", []byte("armed")); !errors.Is(err, storagetest.ErrUnheard) {
				t.Fatalf("CompareAndDelete = %v, want ErrUnheard", err)
			}
			_, err := s.Get(ctx, "t1")
			if gone := errors.Is(err, storage.ErrNotFound); gone != c.wantGone {
				t.Fatalf("after the unheard delete, Get = %v; want gone %v", err, c.wantGone)
			}
			if u.Fired() != 1 {
				t.Fatalf("Fired = %d, want 1", u.Fired())
			}
		})
	}
}

// The outage switch and the trip counter see conditional deletes too.
func TestASwitchedOffStoreRefusesAndACountedStoreCountsAConditionalDelete(t *testing.T) {
	ctx := t.Context()
	sw := storagetest.NewSwitch(memory.New())
	s := sw.For("m")
	if err := s.Put(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	sw.SetDown(true)
	if err := s.CompareAndDelete(ctx, "k", []byte("v")); !errors.Is(err, storagetest.ErrDown) {
		t.Fatalf("CompareAndDelete while down = %v, want ErrDown", err)
	}
	sw.SetDown(false)

	c := storagetest.NewCounting(sw, 0)
	if err := c.For("m").CompareAndDelete(ctx, "k", []byte("v")); err != nil {
		t.Fatalf("CompareAndDelete once up again: %v", err)
	}
	if calls := c.Calls(); len(calls) != 1 || calls[0] != "CompareAndDelete m/k" {
		t.Fatalf("Calls = %q, want one CompareAndDelete m/k", calls)
	}
}
