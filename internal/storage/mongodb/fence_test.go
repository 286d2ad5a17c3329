package mongodb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// fencedProvider opens a fresh database with fenced writes, whatever the
// server: the fences' rules hold on MongoDB too, where they are not needed.
func fencedProvider(t *testing.T) *Provider {
	t.Helper()
	url := testenv.Require(t, "MONGODB_TEST_URL")
	p, err := Open(t.Context(), Config{URL: url, Database: fmt.Sprintf("fence_%d", time.Now().UnixNano())},
		WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	p.fencedWrites = true
	t.Cleanup(func() {
		_ = p.db.Drop(context.Background())
		_ = p.Close(context.Background())
	})
	return p
}

func putFence(t *testing.T, p *Provider, id string, at time.Time) {
	t.Helper()
	if _, err := p.db.Collection(fenceCollection).InsertOne(t.Context(), bson.D{{Key: "_id", Value: id}, {Key: "at", Value: at.UnixNano()}}); err != nil {
		t.Fatal(err)
	}
}

func fencesLeft(t *testing.T, p *Provider) int64 {
	t.Helper()
	n, err := p.db.Collection(fenceCollection).CountDocuments(t.Context(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A fence counts as a dead writer's once this writer has seen it for the
// stale time on its own clock, whatever time it says it was taken at (the
// other process's clock may be off by any amount).
func TestAWriterThatDiedHoldingAFenceBlocksItsKeyOnlyUntilSeenStale(t *testing.T) {
	for _, stamped := range []time.Duration{0, time.Hour, -time.Hour} {
		t.Run(fmt.Sprintf("stamped %v from now", stamped), func(t *testing.T) {
			p := fencedProvider(t)
			p.fenceStale = 300 * time.Millisecond
			s := p.For("mod")
			ctx := t.Context()
			if err := s.Put(ctx, "k", []byte("v0")); err != nil {
				t.Fatal(err)
			}
			putFence(t, p, fencePrefix("mod", "k")+"dead", time.Now().Add(stamped))

			short, cancel := context.WithTimeout(ctx, p.fenceStale/3)
			defer cancel()
			if err := s.CompareAndSwap(short, "k", []byte("v0"), []byte("v1")); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("CAS behind a fence seen for less than the stale time = %v, want it to wait until its context ends", err)
			}
			if err := s.CompareAndSwap(ctx, "k", []byte("v0"), []byte("v1")); err != nil {
				t.Fatalf("CAS behind a fence that goes stale: %v", err)
			}
			if got, _ := s.Get(ctx, "k"); string(got) != "v1" {
				t.Fatalf("value = %q, want v1", got)
			}
			if n := fencesLeft(t, p); n != 0 {
				t.Fatalf("%d fences left, want the dead writer's and this one's dropped", n)
			}
		})
	}
}

// A document no writer of ours made (a value of another BSON type) is
// still replaced by Put and removed by Delete, as without fences.
func TestFencedPutAndDeleteTakeAMalformedDocument(t *testing.T) {
	p := fencedProvider(t)
	ctx := t.Context()
	coll := p.db.Collection("mod")
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "bad"}, {Key: "value", Value: 5}}); err != nil {
		t.Fatal(err)
	}
	s := p.For("mod")
	if err := s.Put(ctx, "bad", []byte("good")); err != nil {
		t.Fatalf("Put over a malformed document: %v", err)
	}
	if got, err := s.Get(ctx, "bad"); err != nil || string(got) != "good" {
		t.Fatalf("Get = %q, %v; want good", got, err)
	}
	if _, err := coll.ReplaceOne(ctx, byID("bad"), bson.D{{Key: "_id", Value: "bad"}, {Key: "value", Value: 5}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "bad"); err != nil {
		t.Fatalf("Delete of a malformed document: %v", err)
	}
	if _, err := s.Get(ctx, "bad"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
}

func TestFencedWritesLeaveNoFenceBehind(t *testing.T) {
	p := fencedProvider(t)
	s := p.For("mod")
	ctx := t.Context()
	steps := []struct {
		name string
		do   func() error
	}{
		{"put a new key", func() error { return s.Put(ctx, "k", []byte("a")) }},
		{"put over it", func() error { return s.Put(ctx, "k", []byte("b")) }},
		{"swap it", func() error { return s.CompareAndSwap(ctx, "k", []byte("b"), []byte("c")) }},
		{"swap it to itself", func() error { return s.CompareAndSwap(ctx, "k", []byte("c"), []byte("c")) }},
		{"delete it", func() error { return s.Delete(ctx, "k") }},
		{"delete it again", func() error { return s.Delete(ctx, "k") }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if n := fencesLeft(t, p); n != 0 {
			t.Fatalf("after %s: %d fences left", st.name, n)
		}
	}
}

func TestAFenceIsNeitherANamespaceNorAnItemToCopy(t *testing.T) {
	p := fencedProvider(t)
	ctx := t.Context()
	if err := p.For("mod").Put(ctx, "k", []byte("a")); err != nil {
		t.Fatal(err)
	}
	putFence(t, p, fencePrefix("mod", "k")+"live", time.Now())
	ns, err := p.Namespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 || ns[0] != "mod" {
		t.Fatalf("namespaces = %v, want [mod]: the fences are no module's", ns)
	}
	var walked []string
	if err := p.Walk(ctx, func(r storage.Raw) error {
		walked = append(walked, r.Namespace+"/"+r.Key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(walked) != 1 || walked[0] != "mod/k" {
		t.Fatalf("walked %v, want [mod/k]: a migration copies no fence", walked)
	}
}
