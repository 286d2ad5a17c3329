package mongodb

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Walk streams every document of every collection, including collections
// and documents the key rules would reject, so the migrator can report them;
// the provider's own fences are no data.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	names, err := p.db.ListCollectionNames(ctx, bson.D{{Key: "name", Value: bson.D{{Key: "$ne", Value: fenceCollection}}}})
	if err != nil {
		return p.wrap("list collections", err)
	}
	for _, name := range names {
		cur, err := p.db.Collection(name).Find(ctx, bson.D{}, options.Find().SetBatchSize(500))
		if err != nil {
			return p.wrap("scan "+name, err)
		}
		for cur.Next(ctx) {
			raw := storage.Raw{Item: storage.Item{Namespace: name}}
			it, err := decodeItem(name, cur.Current)
			if err != nil {
				raw.Key = fmt.Sprint(cur.Current.Lookup("_id"))
				raw.Problem = err.Error()
			} else {
				raw.Item = it
			}
			if err := fn(raw); err != nil {
				cur.Close(ctx)
				return err
			}
		}
		err = cur.Err()
		cur.Close(ctx)
		if err != nil {
			return p.wrap("scan "+name, err)
		}
	}
	return nil
}

// replaceBatch bounds one bulk write of replacements. FerretDB v1 stops
// answering an unordered bulk of more than about 100 replacements of existing
// documents; 100 is also a fine batch for MongoDB. Inserts are not bounded
// here: the driver splits an InsertMany at the server's limits, and a first
// copy is fastest with the fewest calls.
const replaceBatch = 100

// Load writes items with the same document encoding as Put, per collection,
// doing what o.Decide says for each: a repeated load writes nothing and says
// so.
// Its writes pass no fence: on FerretDB it is for a store no bot writes to
// while it runs, as the cutover and restore runbooks have it.
func (p *Provider) Load(ctx context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	byNS := map[string][]storage.Item{}
	var order []string
	for _, it := range items {
		if _, ok := byNS[it.Namespace]; !ok {
			order = append(order, it.Namespace)
		}
		byNS[it.Namespace] = append(byNS[it.Namespace], it)
	}
	var res storage.LoadResult
	for _, ns := range order {
		n, err := p.loadBatch(ctx, ns, byNS[ns], o)
		res = res.Add(n)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// loadBatch inserts the batch optimistically with one unordered InsertMany
// (a first migration into an empty database costs one call per batch, no
// reads). Keys that already exist come back as duplicate-key errors; only
// those are read back and, where o.Decide says so, replaced. A rerun that
// must not bring back deletions (o.Since) reads the whole batch first.
func (p *Provider) loadBatch(ctx context.Context, ns string, batch []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	var res storage.LoadResult
	coll := p.db.Collection(ns)
	insert, existing := batch, map[string]storage.Item{}
	if o.Since > 0 && !o.Overwrite {
		var err error
		if existing, err = p.readBack(ctx, coll, ns, batch); err != nil {
			return res, err
		}
		insert = nil
		for _, it := range batch {
			if _, found := existing[it.Key]; found {
				continue
			}
			if write, why := o.Decide(it, storage.Item{}, false); !write {
				res = res.Add(*why)
				continue
			}
			insert = append(insert, it)
		}
	}
	dups, err := p.insert(ctx, coll, ns, insert)
	res.Written += len(insert) - len(dups)
	if err != nil {
		return res, err
	}
	var replace []storage.Item
	for _, it := range batch {
		if _, isDup := dups[it.Key]; isDup || (o.Since > 0 && !o.Overwrite && existing[it.Key].Key != "") {
			replace = append(replace, it)
		}
	}
	if len(replace) == 0 {
		return res, nil
	}
	if len(existing) == 0 {
		if existing, err = p.readBack(ctx, coll, ns, replace); err != nil {
			return res, err
		}
	}
	var models []mongo.WriteModel
	for _, it := range replace {
		cur, found := existing[it.Key]
		if write, why := o.Decide(it, cur, found); !write {
			res = res.Add(*why)
			continue
		}
		filter := byID(it.Key)
		if !o.Overwrite { // not if a newer write landed meanwhile
			filter = append(filter, bson.E{Key: fieldUpdatedAt, Value: bson.D{{Key: "$lte", Value: it.UpdatedAt}}})
		}
		models = append(models, mongo.NewReplaceOneModel().SetFilter(filter).SetReplacement(itemDocument(it)).SetUpsert(o.Overwrite))
	}
	for start := 0; start < len(models); start += replaceBatch {
		chunk := models[start:min(start+replaceBatch, len(models))]
		r, err := coll.BulkWrite(ctx, chunk, options.BulkWrite().SetOrdered(false))
		if err != nil {
			return res, p.wrap("bulk write "+ns, err)
		}
		written := int(r.MatchedCount + r.UpsertedCount)
		res.Written += written
		res.KeptNewer += len(chunk) - written
	}
	return res, nil
}

// insert inserts items with one unordered InsertMany and returns the keys
// that already existed.
func (p *Provider) insert(ctx context.Context, coll *mongo.Collection, ns string, items []storage.Item) (map[string]bool, error) {
	dups := map[string]bool{}
	if len(items) == 0 {
		return dups, nil
	}
	docs := make([]any, len(items))
	for i, it := range items {
		docs[i] = itemDocument(it)
	}
	_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err == nil {
		return dups, nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return dups, p.wrap("insert "+ns, err)
	}
	for _, we := range bwe.WriteErrors {
		if we.Code != duplicateKey || we.Index < 0 || we.Index >= len(items) {
			return dups, p.wrap("insert "+ns, err)
		}
		dups[items[we.Index].Key] = true
	}
	return dups, nil
}

// readBack reads the target documents of items' keys.
func (p *Provider) readBack(ctx context.Context, coll *mongo.Collection, ns string, items []storage.Item) (map[string]storage.Item, error) {
	ids := make(bson.A, len(items))
	for i, it := range items {
		ids[i] = it.Key
	}
	cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return nil, p.wrap("read back "+ns, err)
	}
	defer cur.Close(ctx)
	existing := map[string]storage.Item{}
	for cur.Next(ctx) {
		if it, err := decodeItem(ns, cur.Current); err == nil {
			existing[it.Key] = it
		}
	}
	if err := cur.Err(); err != nil {
		return nil, p.wrap("read back "+ns, err)
	}
	return existing, nil
}

// duplicateKey is MongoDB's E11000 error code.
const duplicateKey = 11000
