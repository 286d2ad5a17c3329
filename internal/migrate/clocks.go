package migrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// DefaultMaxSkew is how far apart the migrator's clock and a store server's
// may be before a copy or mirror refuses to start (docs/cutover.md).
const DefaultMaxSkew = 2 * time.Second

// ServerClock reads the clock of one store's server.
type ServerClock struct {
	Name string // the store as the tool describes it
	// Read returns the server's time and its resolution: the server's
	// clock read somewhere in [at, at+resolution).
	Read func(ctx context.Context) (at time.Time, resolution time.Duration, err error)
}

// ClockOf is the clock of store's server, named name; false for a store
// with no server (an embedded file is on the migrator's machine).
func ClockOf(name string, store any) (ServerClock, bool) {
	c, ok := store.(storage.ServerClock)
	if !ok {
		return ServerClock{}, false
	}
	return ServerClock{Name: name, Read: c.ServerTime}, true
}

// Skew is one server's clock against the migrator's: Low and High bound
// how far the server is ahead (negative: behind), given the resolution and
// the round trip.
type Skew struct {
	Name                  string
	Low, High             time.Duration
	resolution, roundTrip time.Duration
}

// ErrClockSkew: a server's clock and the migrator's are too far apart for
// newer-wins and the checkpoint to be trusted.
var ErrClockSkew = errors.New("migrate: a store's clock and the migrator's are too far apart")

// CheckClocks is the pre-flight of a copy or mirror. Newer-wins compares
// updatedAt stamps written by the runtimes, and the checkpoint is stamped by
// the migrator's clock (now): they are only right while those clocks agree.
// It reads each server's clock between two readings of now and fails
// (ErrClockSkew) when one is, for certain, more than max ahead or behind:
// what it cannot tell apart (the resolution, the round trip) gives the
// clocks the benefit of the doubt.
func CheckClocks(ctx context.Context, now func() time.Time, max time.Duration, clocks []ServerClock) ([]Skew, error) {
	var out []Skew
	var bad []string
	for _, c := range clocks {
		before := now()
		at, res, err := c.Read(ctx)
		after := now()
		if err != nil {
			return out, fmt.Errorf("migrate: reading the clock of %s: %w", c.Name, err)
		}
		s := Skew{Name: c.Name, Low: at.Sub(after), High: at.Add(res).Sub(before), resolution: res, roundTrip: after.Sub(before)}
		if s.Low > max || s.High < -max {
			bad = append(bad, fmt.Sprintf("%s is %s", c.Name, s.describe()))
		}
		out = append(out, s)
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("%w: %s, past the %s allowed. Set the clocks right (NTP) before moving data: a copy "+
			"compares times stamped by different machines (docs/cutover.md)", ErrClockSkew, strings.Join(bad, "; "), max)
	}
	return out, nil
}

// describe says how far ahead or behind the server is, at least.
func (s Skew) describe() string {
	if s.Low > 0 {
		return fmt.Sprintf("at least %s ahead of this machine", s.Low.Round(time.Millisecond))
	}
	if s.High < 0 {
		return fmt.Sprintf("at least %s behind this machine", (-s.High).Round(time.Millisecond))
	}
	return fmt.Sprintf("within %s of this machine", max(-s.Low, s.High).Round(time.Millisecond))
}

// String is the skew as the pre-flight prints it.
func (s Skew) String() string {
	return fmt.Sprintf("clock of %s: %s (resolution %s, round trip %s)", s.Name, s.describe(), s.resolution, s.roundTrip.Round(time.Millisecond))
}
