package mongodb

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Walk streams every document of every collection, including collections
// and documents the key rules would reject, so the migrator can report them.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	names, err := p.db.ListCollectionNames(ctx, bson.D{})
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

// loadBatch bounds one bulk write. FerretDB v1 stops answering an unordered
// bulk of more than about 100 replacements of existing documents; 100 is
// also a fine batch for MongoDB.
const loadBatch = 100

// Load writes items with the same document encoding as Put, per collection
// in batches, and reports how many it changed: a repeated load writes
// nothing and says so.
func (p *Provider) Load(ctx context.Context, items []storage.Item) (int, error) {
	byNS := map[string][]storage.Item{}
	var order []string
	for _, it := range items {
		if _, ok := byNS[it.Namespace]; !ok {
			order = append(order, it.Namespace)
		}
		byNS[it.Namespace] = append(byNS[it.Namespace], it)
	}
	changed := 0
	for _, ns := range order {
		all := byNS[ns]
		for start := 0; start < len(all); start += loadBatch {
			n, err := p.loadBatch(ctx, ns, all[start:min(start+loadBatch, len(all))])
			changed += n
			if err != nil {
				return changed, err
			}
		}
	}
	return changed, nil
}

// loadBatch inserts the batch optimistically with one unordered InsertMany
// (a migration into an empty database costs one call per batch, no reads).
// Keys that already exist come back as duplicate-key errors; only those are
// read back, and replaced where they differ.
func (p *Provider) loadBatch(ctx context.Context, ns string, batch []storage.Item) (int, error) {
	coll := p.db.Collection(ns)
	docs := make([]any, len(batch))
	for i, it := range batch {
		docs[i] = Document(it)
	}
	_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err == nil {
		return len(batch), nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return 0, p.wrap("insert "+ns, err)
	}
	var dups []storage.Item
	for _, we := range bwe.WriteErrors {
		if we.Code != duplicateKey || we.Index < 0 || we.Index >= len(batch) {
			return 0, p.wrap("insert "+ns, err)
		}
		dups = append(dups, batch[we.Index])
	}
	inserted := len(batch) - len(dups)

	ids := make(bson.A, len(dups))
	for i, it := range dups {
		ids[i] = it.Key
	}
	cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return inserted, p.wrap("read back "+ns, err)
	}
	existing := map[string]storage.Item{}
	for cur.Next(ctx) {
		if it, err := decodeItem(ns, cur.Current); err == nil {
			existing[it.Key] = it
		}
	}
	err = cur.Err()
	cur.Close(ctx)
	if err != nil {
		return inserted, p.wrap("read back "+ns, err)
	}
	var models []mongo.WriteModel
	for _, it := range dups {
		if cur, ok := existing[it.Key]; ok && bytes.Equal(cur.Value, it.Value) && cur.UpdatedAt == it.UpdatedAt {
			continue
		}
		models = append(models, mongo.NewReplaceOneModel().SetFilter(byID(it.Key)).SetReplacement(Document(it)).SetUpsert(true))
	}
	if len(models) > 0 {
		if _, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false)); err != nil {
			return inserted, p.wrap("bulk write "+ns, err)
		}
	}
	return inserted + len(models), nil
}

// duplicateKey is MongoDB's E11000 error code.
const duplicateKey = 11000
