package mongodb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Fences make the writes to one key follow one another on a server whose
// filtered update is a query followed by a write by _id (FerretDB v1):
// there, two writers that read the same value could both match it and
// both write, and a Put could land between another's query and its write.
// Before it writes over a value, a writer inserts a fence named by the
// namespace, the key and that value into a collection of its own; the
// unique _id lets one writer per value through, and every writer of a
// present document (CAS, Put, Delete) passes one. MongoDB's own filtered
// update is atomic, so there the provider writes without them.
const fenceCollection = "miti99bot.fences" // a dot: never a module's namespace

const (
	// fenceStale: a fence this old belongs to a writer that died between
	// taking it and dropping it; the next writer takes the next one.
	fenceStale = 30 * time.Second
	// fenceHold: a writer that took longer than this to get from its fence
	// to its write gives up (a conflict) rather than write after its fence
	// could have gone stale.
	fenceHold = fenceStale / 3
)

// fence is one writer's pass over one (key, value).
type fence struct {
	coll  *mongo.Collection
	id    string   // this writer's fence
	stale []string // dead writers' fences of the same value, dropped with it
	took  time.Time
}

func fencePrefix(ns, key string, val []byte) string {
	sum := sha256.Sum256(val)
	// "/" is in no namespace and no key: the parts cannot run together.
	return ns + "/" + key + "/" + hex.EncodeToString(sum[:16]) + "/"
}

// errFenceHeld: a live writer holds the fence; it drops it within a few
// round trips.
var errFenceHeld = errors.New("fence held")

// takeFence passes the fence of (ns, key, val), waiting while a live
// writer holds it: a writer turned away by a fence alone would report a
// conflict while the value may still be the one it expects.
func (p *Provider) takeFence(ctx context.Context, ns, key string, val []byte) (*fence, error) {
	for try := 0; ; try++ {
		f, err := p.tryFence(ctx, ns, key, val)
		if !errors.Is(err, errFenceHeld) {
			return f, err
		}
		if err := pauseFor(ctx, try); err != nil {
			return nil, fmt.Errorf("mongodb: %s: waiting for another writer: %w", key, err)
		}
	}
}

func (p *Provider) tryFence(ctx context.Context, ns, key string, val []byte) (*fence, error) {
	coll := p.db.Collection(fenceCollection)
	prefix := fencePrefix(ns, key, val)
	f := &fence{coll: coll, id: prefix + "1", took: time.Now()}
	won, err := p.insertFence(ctx, coll, f.id)
	if won || err != nil {
		return f, err
	}
	// Someone holds it, or died holding it: the newest fence says which.
	ids, newest, at, err := p.fences(ctx, coll, prefix)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 || p.now().Sub(time.Unix(0, at)) < fenceStale {
		return nil, errFenceHeld
	}
	f.id, f.stale = prefix+strconv.Itoa(newest+1), ids
	won, err = p.insertFence(ctx, coll, f.id)
	if err == nil && !won {
		err = errFenceHeld
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (p *Provider) insertFence(ctx context.Context, coll *mongo.Collection, id string) (bool, error) {
	_, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "at", Value: p.now().UnixNano()}})
	if mongo.IsDuplicateKeyError(err) {
		return false, nil
	}
	return err == nil, p.wrap("insert fence", err)
}

// fences lists the fences under prefix: their ids, the highest number and
// when that one was taken.
func (p *Provider) fences(ctx context.Context, coll *mongo.Collection, prefix string) (ids []string, newest int, at int64, err error) {
	rng := bson.D{{Key: "$gte", Value: prefix}}
	if succ, ok := storage.PrefixSuccessor(prefix); ok {
		rng = append(rng, bson.E{Key: "$lt", Value: succ})
	}
	cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: rng}})
	if err != nil {
		return nil, 0, 0, p.wrap("find fences", err)
	}
	defer cur.Close(context.WithoutCancel(ctx))
	for cur.Next(ctx) {
		var doc struct {
			ID string `bson:"_id"`
			At int64  `bson:"at"`
		}
		if err := cur.Decode(&doc); err != nil {
			return nil, 0, 0, p.wrap("read fence", err)
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(doc.ID, prefix))
		if n > newest {
			newest, at = n, doc.At
		}
		ids = append(ids, doc.ID)
	}
	return ids, newest, at, p.wrap("find fences", cur.Err())
}

// late reports that the writer took too long since its fence to write now.
func (f *fence) late() bool { return time.Since(f.took) > fenceHold }

// drop removes the dead writers' fences, then this one. A fence left by a
// failed drop blocks its value's writers until it is stale, no longer.
func (f *fence) drop(ctx context.Context) {
	for _, id := range append(f.stale, f.id) {
		_, _ = f.coll.DeleteOne(ctx, byID(id))
	}
}

// fenced runs write behind the fence of (key, val), once it is this
// writer's; a writer too slow to get from its fence to its write takes
// the fence again rather than write after it could have gone stale.
func (c *collection) fenced(ctx context.Context, key string, val []byte, write func() error) error {
	for {
		f, err := c.p.takeFence(ctx, c.c.Name(), key, val)
		if err != nil {
			return err
		}
		if f.late() {
			f.drop(context.WithoutCancel(ctx))
			continue
		}
		err = write()
		f.drop(context.WithoutCancel(ctx))
		return err
	}
}

// overwrite is Put and Delete on a fenced server: a swap from the value
// read, behind its fence, tried until it lands. write(cur) writes over
// cur (nil: the key is absent) and returns ErrConflict when cur is gone.
func (c *collection) overwrite(ctx context.Context, key string, write func(cur []byte) error) error {
	for try := 0; ; try++ {
		cur, err := c.Get(ctx, key)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			err = write(nil)
		case err == nil:
			err = c.fenced(ctx, key, cur, func() error { return write(cur) })
		}
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
		if err := pauseFor(ctx, try); err != nil {
			return fmt.Errorf("mongodb: %s: writes keep conflicting: %w", key, err)
		}
	}
}

// pauseFor waits before try number try+1 of overwrite: a live fence is
// dropped within a few round trips.
func pauseFor(ctx context.Context, try int) error {
	return pause.For(ctx, pause.Backoff(try, time.Millisecond, 50*time.Millisecond))
}
