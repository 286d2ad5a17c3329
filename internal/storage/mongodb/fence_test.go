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

func TestAWriterThatDiedHoldingAFenceBlocksItsValueOnlyUntilTheFenceIsStale(t *testing.T) {
	p := fencedProvider(t)
	s := p.For("mod")
	ctx := t.Context()
	if err := s.Put(ctx, "k", []byte("v0")); err != nil {
		t.Fatal(err)
	}
	dead := fencePrefix("mod", "k", []byte("v0")) + "1"

	putFence(t, p, dead, time.Now())
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := s.CompareAndSwap(short, "k", []byte("v0"), []byte("v1")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CAS behind a live fence = %v, want it to wait until its context ends", err)
	}

	if _, err := p.db.Collection(fenceCollection).DeleteOne(ctx, byID(dead)); err != nil {
		t.Fatal(err)
	}
	putFence(t, p, dead, time.Now().Add(-fenceStale-time.Second))
	if err := s.CompareAndSwap(ctx, "k", []byte("v0"), []byte("v1")); err != nil {
		t.Fatalf("CAS behind a stale fence: %v", err)
	}
	if got, _ := s.Get(ctx, "k"); string(got) != "v1" {
		t.Fatalf("value = %q, want v1", got)
	}
	if n := fencesLeft(t, p); n != 0 {
		t.Fatalf("%d fences left, want the dead writer's and this one's dropped", n)
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
	putFence(t, p, fencePrefix("mod", "k", []byte("a"))+"1", time.Now())
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
