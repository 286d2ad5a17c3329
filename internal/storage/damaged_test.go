package storage_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// A job's error is only damage when every failure in it is a value that
// cannot be read; one failure of another kind makes it a failure to retry.
func TestARunFailsOnlyOfDamageWhenEveryFailureIsADamagedItem(t *testing.T) {
	a := storage.Damaged("coin", "user:1", []byte("["), errors.New("bad"))
	b := storage.Damaged("", "user:2", []byte("{"), errors.New("bad"))
	down := errors.New("store down")
	cases := []struct {
		name  string
		err   error
		only  bool
		items int
	}{
		{"none", nil, false, 0},
		{"one damaged item, wrapped", fmt.Errorf("user 1: %w", a), true, 1},
		{"every item of a join damaged", fmt.Errorf("values: %w", errors.Join(fmt.Errorf("user 1: %w", a), b)), true, 2},
		{"a damaged item beside an outage", errors.Join(a, down), false, 1},
		{"an outage", fmt.Errorf("x: %w", down), false, 0},
		{"an unreadable value its reader named by hand", fmt.Errorf("%w: timer 7: %w", storage.ErrUnreadable, errors.New("bad")), true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := storage.OnlyDamage(c.err); got != c.only {
				t.Errorf("OnlyDamage = %v, want %v", got, c.only)
			}
			if got := len(storage.DamagedItems(c.err)); got != c.items {
				t.Errorf("DamagedItems = %d, want %d", got, c.items)
			}
		})
	}
}

// GetJSON and UpdateJSON refuse a value that does not decode as a
// DamagedError naming the item and fingerprinting its bytes, never
// quoting them.
func TestAValueThatDoesNotDecodeIsADamagedErrorNamingTheItem(t *testing.T) {
	s := memory.New().For("coin")
	raw := []byte(`["secret":"42"}`)
	if err := s.Put(t.Context(), "user:1", raw); err != nil {
		t.Fatal(err)
	}
	var v map[string]string
	for name, err := range map[string]error{
		"GetJSON":    s.GetJSON(t.Context(), "user:1", &v),
		"UpdateJSON": storage.UpdateJSON(t.Context(), s, "user:1", func(*map[string]string, bool) (bool, error) { return false, nil }),
	} {
		var d *storage.DamagedError
		if !errors.As(err, &d) || !errors.Is(err, storage.ErrUnreadable) || d.Key != "user:1" || d.Sum != storage.Fingerprint(raw) {
			t.Errorf("%s = %#v, want a DamagedError of user:1", name, err)
			continue
		}
		if name == "GetJSON" && d.Namespace != "coin" {
			t.Errorf("GetJSON names namespace %q, want coin", d.Namespace)
		}
		if msg := err.Error(); contains(msg, "secret") || contains(msg, "42") {
			t.Errorf("%s's message quotes the value: %s", name, msg)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
