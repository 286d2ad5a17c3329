package migrate_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

var errUnreadable = errors.New("no credentials")

// unreadable is a store whose walk fails after failAfter items, as a
// DynamoDB table does without credentials or by a wrong name.
type unreadable struct {
	*memory.Provider
	failAfter int
}

func (u unreadable) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	read := 0
	err := u.Provider.Walk(ctx, func(r storage.Raw) error {
		if read == u.failAfter {
			return errUnreadable
		}
		read++
		return fn(r)
	})
	if read == u.failAfter && err == nil {
		return errUnreadable // fewer items than failAfter: fail at the end
	}
	return err
}

func TestVerifySaysIdenticalOnlyAfterReadingBothSides(t *testing.T) {
	cases := []struct {
		name      string
		src, dst  func(t *testing.T) migrate.Target
		wantErr   error
		wantFinal string
	}{
		{"both read and equal", func(t *testing.T) migrate.Target { return seeded(t, 3) }, func(t *testing.T) migrate.Target { return seeded(t, 3) }, nil, "verify: identical (1 modules)"},
		{"both read and different", func(t *testing.T) migrate.Target { return seeded(t, 3) }, func(t *testing.T) migrate.Target { return seeded(t, 2) }, migrate.ErrDifferent, "verify: 1 of 1 modules differ"},
		{"an empty source that cannot be read", func(t *testing.T) migrate.Target { return unreadable{memory.New(), 0} }, func(t *testing.T) migrate.Target { return memory.New() }, errUnreadable, "verify: unfinished"},
		{"a source failing half way", func(t *testing.T) migrate.Target { return unreadable{seeded(t, 4), 2} }, func(t *testing.T) migrate.Target { return seeded(t, 4) }, errUnreadable, "verify: unfinished"},
		{"a target that cannot be read", func(t *testing.T) migrate.Target { return seeded(t, 3) }, func(t *testing.T) migrate.Target { return unreadable{seeded(t, 3), 0} }, errUnreadable, "verify: unfinished"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := migrate.Verify(t.Context(), tc.src(t), tc.dst(t), nil)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Verify = %v, want %v", err, tc.wantErr)
			}
			if read := tc.wantErr == nil || errors.Is(tc.wantErr, migrate.ErrDifferent); rep.Read() != read {
				t.Errorf("Read() = %v, want %v", rep.Read(), read)
			}
			var out bytes.Buffer
			rep.WriteTable(&out)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if final := lines[len(lines)-1]; !strings.HasPrefix(final, tc.wantFinal) {
				t.Errorf("last line %q, want it to start %q", final, tc.wantFinal)
			}
			if tc.wantErr != nil && strings.Contains(out.String(), "identical") {
				t.Errorf("a failed verify printed identical:\n%s", out.String())
			}
		})
	}
}
