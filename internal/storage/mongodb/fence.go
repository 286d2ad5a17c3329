package mongodb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Fences make the writes to one key follow one another on a server whose
// filtered update is a query followed by a write by _id (FerretDB v1):
// there, two writers that read the same value could both match it and
// both write, and a Put could land between another's query and its write.
// Before it writes to a present document (CAS over a value, Put, Delete),
// a writer inserts a fence of its own for the key into a collection of
// its own, then lists the key's fences: it writes only when no other live
// fence is there. Of two writers the one that lists second sees the
// other's fence, so they never both write. MongoDB's own filtered update
// is atomic, so there the provider writes without them.
const fenceCollection = "miti99bot.fences" // a dot: never a module's namespace

// defaultFenceStale: a fence another writer has seen for this long, on its
// own clock, belongs to a writer that died; it is no longer a fence. A
// writer that took a third of it from its fence to its write takes a new
// fence rather than write after its fence could have gone stale.
const defaultFenceStale = 30 * time.Second

// dropBudget bounds the drop of a fence after the write.
const dropBudget = 5 * time.Second

// fence is one writer's fence on one key.
type fence struct {
	coll *mongo.Collection
	id   string
	took time.Time
}

func fencePrefix(ns, key string) string {
	return ns + "/" + key + "/" // "/" is in no namespace and no key
}

// takeFence waits until this writer holds the only live fence of (ns, key).
// seen is when this writer first saw each other fence, on its monotonic
// clock: a fence seen for p.fenceStale is a dead writer's (wall clocks of
// other processes are not trusted for that).
func (p *Provider) takeFence(ctx context.Context, ns, key string) (*fence, error) {
	coll := p.db.Collection(fenceCollection)
	prefix := fencePrefix(ns, key)
	seen := map[string]time.Time{}
	for try := 0; ; try++ {
		f := &fence{coll: coll, id: prefix + newFenceID(), took: time.Now()}
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: f.id}, {Key: "at", Value: p.now().UnixNano()}}); err != nil {
			return nil, p.wrap("insert fence", err)
		}
		ids, err := p.fenceIDs(ctx, coll, prefix)
		if err != nil {
			f.drop(ctx)
			return nil, err
		}
		if !p.othersLive(ctx, coll, ids, f.id, seen) {
			return f, nil
		}
		f.drop(ctx)
		if err := pause.For(ctx, pause.Backoff(try, 2*time.Millisecond, 100*time.Millisecond)); err != nil {
			return nil, fmt.Errorf("mongodb: %s: waiting for another writer: %w", key, err)
		}
	}
}

// othersLive reports whether ids holds a live fence other than mine; the
// dead ones it deletes (by their own ids: never a live writer's).
func (p *Provider) othersLive(ctx context.Context, coll *mongo.Collection, ids []string, mine string, seen map[string]time.Time) bool {
	live := false
	for _, id := range ids {
		if id == mine {
			continue
		}
		first, ok := seen[id]
		switch {
		case !ok:
			seen[id], live = time.Now(), true
		case time.Since(first) < p.fenceStale:
			live = true
		default:
			_, _ = coll.DeleteOne(ctx, byID(id))
		}
	}
	return live
}

func newFenceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// fenceIDs lists the fences under prefix.
func (p *Provider) fenceIDs(ctx context.Context, coll *mongo.Collection, prefix string) ([]string, error) {
	rng := bson.D{{Key: "$gte", Value: prefix}}
	if succ, ok := storage.PrefixSuccessor(prefix); ok {
		rng = append(rng, bson.E{Key: "$lt", Value: succ})
	}
	cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: rng}}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, p.wrap("find fences", err)
	}
	defer cur.Close(context.WithoutCancel(ctx))
	var ids []string
	for cur.Next(ctx) {
		id, ok := cur.Current.Lookup("_id").StringValueOK()
		if !ok {
			return nil, errBadDocument
		}
		ids = append(ids, id)
	}
	return ids, p.wrap("find fences", cur.Err())
}

// drop removes the fence. One left behind (a failed drop) is dead once a
// writer of its key has seen it for p.fenceStale, and that writer deletes it.
func (f *fence) drop(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropBudget)
	defer cancel()
	_, _ = f.coll.DeleteOne(ctx, byID(f.id))
}

// fenced runs write behind a fence of key, once it is this writer's only.
// The fence is dropped once the server has answered; after a timeout or a
// broken connection it stays (the server may still apply the write) and
// goes stale in its time.
func (c *collection) fenced(ctx context.Context, key string, write func() error) error {
	for {
		f, err := c.p.takeFence(ctx, c.c.Name(), key)
		if err != nil {
			return err
		}
		if time.Since(f.took) > c.p.fenceStale/3 {
			f.drop(ctx)
			continue
		}
		err = write()
		var answered mongo.ServerError
		if err == nil || errors.Is(err, storage.ErrConflict) || errors.As(err, &answered) {
			f.drop(ctx)
		}
		return err
	}
}
