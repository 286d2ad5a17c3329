package mongodb

import (
	"bytes"
	"context"
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

// Load writes items with the same document encoding as Put. Per collection
// and batch it first reads the existing documents and upserts only those
// that differ, so a repeated load writes nothing and reports it.
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

func (p *Provider) loadBatch(ctx context.Context, ns string, batch []storage.Item) (int, error) {
	coll := p.db.Collection(ns)
	ids := make(bson.A, len(batch))
	for i, it := range batch {
		ids[i] = it.Key
	}
	cur, err := coll.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
	if err != nil {
		return 0, p.wrap("read back "+ns, err)
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
		return 0, p.wrap("read back "+ns, err)
	}
	// New documents go in with one InsertMany (cheapest on every server);
	// existing ones that differ are replaced. If a concurrent writer created
	// one of the new documents meanwhile, that batch falls back to upserts.
	var fresh []any
	var models []mongo.WriteModel
	for _, it := range batch {
		cur, ok := existing[it.Key]
		switch {
		case !ok:
			fresh = append(fresh, Document(it))
		case !bytes.Equal(cur.Value, it.Value) || cur.UpdatedAt != it.UpdatedAt:
			models = append(models, mongo.NewReplaceOneModel().SetFilter(byID(it.Key)).SetReplacement(Document(it)).SetUpsert(true))
		}
	}
	if len(fresh) > 0 {
		_, err := coll.InsertMany(ctx, fresh, options.InsertMany().SetOrdered(false))
		if mongo.IsDuplicateKeyError(err) {
			for _, doc := range fresh {
				id := doc.(bson.D)[0].Value
				models = append(models, mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}).SetReplacement(doc).SetUpsert(true))
			}
		} else if err != nil {
			return 0, p.wrap("insert "+ns, err)
		}
	}
	if len(models) > 0 {
		if _, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false)); err != nil {
			return 0, p.wrap("bulk write "+ns, err)
		}
	}
	return len(fresh) + len(models), nil
}
