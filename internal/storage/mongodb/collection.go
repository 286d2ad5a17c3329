package mongodb

import (
	"context"
	"errors"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// collection is one module's namespace; storage.Wrap validates its inputs.
type collection struct {
	p *Provider
	c *mongo.Collection
}

func byID(key string) bson.D { return bson.D{{Key: "_id", Value: key}} }

func (c *collection) Get(ctx context.Context, key string) ([]byte, error) {
	raw, err := c.c.FindOne(ctx, byID(key), options.FindOne().SetProjection(bson.D{{Key: fieldValue, Value: 1}})).Raw()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, storage.ErrNotFound
	}
	if err != nil {
		return nil, c.p.wrap("find", err)
	}
	return decodeValue(raw)
}

func (c *collection) Put(ctx context.Context, key string, val []byte) error {
	if c.p.fencedWrites {
		return c.fenced(ctx, key, func() error { return c.replace(ctx, key, val) })
	}
	return c.replace(ctx, key, val)
}

func (c *collection) replace(ctx context.Context, key string, val []byte) error {
	doc := document(key, val, c.p.now().UnixNano())
	_, err := c.c.ReplaceOne(ctx, byID(key), doc, options.Replace().SetUpsert(true))
	if mongo.IsDuplicateKeyError(err) {
		// Two upserts of a new key raced and the other inserted first; the
		// document exists now, so replacing it is an ordinary update.
		_, err = c.c.ReplaceOne(ctx, byID(key), doc)
	}
	return c.p.wrap("replace", err)
}

func (c *collection) Delete(ctx context.Context, key string) error {
	if c.p.fencedWrites {
		return c.fenced(ctx, key, func() error { return c.delete(ctx, key) })
	}
	return c.delete(ctx, key)
}

func (c *collection) delete(ctx context.Context, key string) error {
	_, err := c.c.DeleteOne(ctx, byID(key))
	return c.p.wrap("delete", err)
}

// List is a range query on _id, [prefix, successor(prefix)): it uses the _id
// index and, unlike a regex, needs no escaping of the caller's prefix.
func (c *collection) List(ctx context.Context, prefix string) ([]string, error) {
	rng := bson.D{{Key: "$gte", Value: prefix}}
	if succ, ok := storage.PrefixSuccessor(prefix); ok {
		rng = append(rng, bson.E{Key: "$lt", Value: succ})
	}
	cur, err := c.c.Find(ctx, bson.D{{Key: "_id", Value: rng}}, options.Find().
		SetProjection(bson.D{{Key: "_id", Value: 1}}).
		SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, c.p.wrap("find", err)
	}
	defer cur.Close(context.WithoutCancel(ctx))
	keys := []string{}
	for cur.Next(ctx) {
		k, ok := cur.Current.Lookup("_id").StringValueOK()
		if !ok {
			return nil, errBadDocument
		}
		keys = append(keys, k)
	}
	return keys, c.p.wrap("find", cur.Err())
}

// CompareAndSwap maps "must be absent" to InsertOne, whose unique _id gives
// exactly one winner, and "must equal" to an update filtered on the value
// (behind the key's fence where the server needs one).
func (c *collection) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	if expected != nil && c.p.fencedWrites {
		return c.fenced(ctx, key, func() error { return c.swap(ctx, key, expected, val) })
	}
	return c.swap(ctx, key, expected, val)
}

func (c *collection) swap(ctx context.Context, key string, expected, val []byte) error {
	now := c.p.now().UnixNano()
	if expected == nil {
		_, err := c.c.InsertOne(ctx, document(key, val, now))
		if mongo.IsDuplicateKeyError(err) {
			return storage.ErrConflict
		}
		return c.p.wrap("insert", err)
	}
	update := bson.D{{Key: "$set", Value: bson.D{
		{Key: fieldValue, Value: bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: val}},
		{Key: fieldUpdatedAt, Value: now},
	}}}
	res, err := c.c.UpdateOne(ctx, holding(key, expected), update)
	if err != nil {
		return c.p.wrap("update", err)
	}
	if res.MatchedCount == 0 {
		return storage.ErrConflict
	}
	return nil
}

// holding matches the document of key while it holds val.
func holding(key string, val []byte) bson.D {
	match := bson.A{bson.D{{Key: fieldValue, Value: bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: val}}}}
	if utf8.Valid(val) {
		// Values written by older code are strings; without this a CAS loop
		// over such a value would conflict forever.
		match = append(match, bson.D{{Key: fieldValue, Value: string(val)}})
	}
	return bson.D{{Key: "_id", Value: key}, {Key: "$or", Value: match}}
}
