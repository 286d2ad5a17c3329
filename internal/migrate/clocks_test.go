package migrate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/migrate"
)

// TestTheCopyRefusesToStartOnlyWhenAClockIsCertainlyTooFarOff reads a
// server clock between two readings of the migrator's, 100 ms apart.
func TestTheCopyRefusesToStartOnlyWhenAClockIsCertainlyTooFarOff(t *testing.T) {
	base := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	const roundTrip = 100 * time.Millisecond
	tests := []struct {
		name       string
		server     time.Duration // the server's reading, after base
		resolution time.Duration
		refuses    string // "" when it passes
	}{
		{"a clock in step passes", 50 * time.Millisecond, time.Millisecond, ""},
		{"a clock 1.5 s ahead passes", 1500 * time.Millisecond, time.Millisecond, ""},
		{"a clock 3 s ahead refuses", 3 * time.Second, time.Millisecond, "at least 2.9s ahead"},
		{"a clock 3 s behind refuses", -3 * time.Second, time.Millisecond, "at least 2.999s behind"},
		{"a Date header's whole second 2 s behind may be 1 s behind: it passes", -2 * time.Second, time.Second, ""},
		{"a Date header's whole second 4 s behind refuses", -4 * time.Second, time.Second, "at least 3s behind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reads := 0
			now := func() time.Time { reads++; return base.Add(time.Duration(reads-1) * roundTrip) }
			clock := migrate.ServerClock{Name: "mongodb database bot", Read: func(context.Context) (time.Time, time.Duration, error) {
				return base.Add(tt.server), tt.resolution, nil
			}}
			_, err := migrate.CheckClocks(t.Context(), now, migrate.DefaultMaxSkew, []migrate.ServerClock{clock})
			if tt.refuses == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, migrate.ErrClockSkew) || !strings.Contains(err.Error(), "mongodb database bot is "+tt.refuses) {
				t.Fatalf("err = %v; want %v saying %q", err, migrate.ErrClockSkew, tt.refuses)
			}
		})
	}
}

func TestAClockThatCannotBeReadStopsThePreflightNamingTheStore(t *testing.T) {
	clock := migrate.ServerClock{Name: "dynamodb table bot", Read: func(context.Context) (time.Time, time.Duration, error) {
		return time.Time{}, 0, errors.New("no Date header")
	}}
	_, err := migrate.CheckClocks(t.Context(), time.Now, migrate.DefaultMaxSkew, []migrate.ServerClock{clock})
	if err == nil || !strings.Contains(err.Error(), "dynamodb table bot: no Date header") {
		t.Fatalf("err = %v", err)
	}
}
