package main

import (
	"context"
	"testing"
	"time"
)

// TestThePreflightReadsEachServersClock: the test servers run on this
// machine, so each clock reads inside the call, to its resolution.
func TestThePreflightReadsEachServersClock(t *testing.T) {
	s := newStores(t)
	clocks := []struct {
		name       string
		read       func(context.Context) (time.Time, time.Duration, error)
		resolution time.Duration
	}{
		{"dynamodb (the Date header)", s.dyn.ServerTime, time.Second},
		{"mongodb (hello's localTime)", s.mongo.ServerTime, time.Millisecond},
	}
	for _, c := range clocks {
		t.Run(c.name, func(t *testing.T) {
			before := time.Now()
			at, res, err := c.read(t.Context())
			after := time.Now()
			if err != nil {
				t.Fatal(err)
			}
			if res != c.resolution || at.Before(before.Add(-res)) || at.After(after) {
				t.Fatalf("read %s (resolution %s) during [%s, %s]", at, res, before, after)
			}
		})
	}
}
