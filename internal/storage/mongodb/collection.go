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
// exactly one winner, and "must equal" to an update filtered on the value.
func (c *collection) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	now := c.p.now().UnixNano()
	if expected == nil {
		_, err := c.c.InsertOne(ctx, document(key, val, now))
		if mongo.IsDuplicateKeyError(err) {
			return storage.ErrConflict
		}
		return c.p.wrap("insert", err)
	}
	filter := bson.D{{Key: "_id", Value: key}, {Key: "$or", Value: valueIs(expected)}}
	update := bson.D{{Key: "$set", Value: bson.D{
		{Key: fieldValue, Value: bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: val}},
		{Key: fieldUpdatedAt, Value: now},
	}}}
	res, err := c.c.UpdateOne(ctx, filter, update)
	if err != nil {
		return c.p.wrap("update", err)
	}
	if res.MatchedCount == 0 {
		return storage.ErrConflict
	}
	return nil
}

// valueIs is the filter clauses ($or) that match a stored value equal to
// expected. Values written by older code are strings; without the string
// clause a CAS loop over such a value would conflict forever.
func valueIs(expected []byte) bson.A {
	match := bson.A{bson.D{{Key: fieldValue, Value: bson.Binary{Subtype: bson.TypeBinaryGeneric, Data: expected}}}}
	if utf8.Valid(expected) {
		match = append(match, bson.D{{Key: fieldValue, Value: string(expected)}})
	}
	return match
}

// CompareAndDelete is a DeleteOne filtered on the value: the server matches
// and deletes the document in one operation, so of racing deleters (or a
// deleter and a filtered update) one finds it.
func (c *collection) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	res, err := c.c.DeleteOne(ctx, bson.D{{Key: "_id", Value: key}, {Key: "$or", Value: valueIs(expected)}})
	if err != nil {
		return c.p.wrap("delete", err)
	}
	if res.DeletedCount == 0 {
		return storage.ErrConflict
	}
	return nil
}
