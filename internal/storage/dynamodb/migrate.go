package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Walk scans the whole table, page by page: the migrator's source needs
// only dynamodb:Scan. Items the codec cannot read are passed on with a
// Problem, never skipped.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	pages := dynamodb.NewScanPaginator(p.client, &dynamodb.ScanInput{TableName: &p.table, ConsistentRead: aws.Bool(true), Limit: aws.Int32(scanPage)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return p.fail("scan", err)
		}
		for _, raw := range page.Items {
			it, err := decodeItem(raw)
			r := storage.Raw{Item: it}
			if err != nil {
				pk, _ := raw[attrPK].(*types.AttributeValueMemberS)
				sk, _ := raw[attrSK].(*types.AttributeValueMemberS)
				if pk != nil {
					r.Namespace = pk.Value
				}
				if sk != nil {
					r.Key = sk.Value
				}
				r.Problem = err.Error()
			}
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// scanPage bounds a Scan page in items. DynamoDB's own bound is 1 MB, which
// decoded is most of a copy's heap; a page this size keeps the heap low
// for a few more round trips (40 per 100k items, a fraction of the writes').
const scanPage = 5000

// batchLimit is BatchWriteItem's and a sensible BatchGetItem size.
const batchLimit = 25

// Load writes items with the same encoding as Put. It first reads the batch
// back with BatchGetItem and writes only what o.Decide says to, so a
// repeated load changes nothing and says so. With Overwrite the writes go
// in BatchWriteItem (retrying unprocessed items with back-off). Without it
// each write is a PutItem on the condition that the target item is absent
// or not newer, so a write the runtime makes on the target meanwhile is
// never rolled back either.
func (p *Provider) Load(ctx context.Context, items []storage.Item, o storage.LoadOptions) (storage.LoadResult, error) {
	var res storage.LoadResult
	for start := 0; start < len(items); start += batchLimit {
		batch := items[start:min(start+batchLimit, len(items))]
		existing, err := p.batchGet(ctx, batch)
		if err != nil {
			return res, err
		}
		var writes []storage.Item
		for _, it := range batch {
			cur, found := existing[[2]string{it.Namespace, it.Key}]
			if write, why := o.Decide(it, cur, found); !write {
				res = res.Add(*why)
				continue
			}
			writes = append(writes, it)
		}
		if o.Overwrite {
			reqs := make([]types.WriteRequest, len(writes))
			for i, it := range writes {
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: Encode(it)}}
			}
			if err := p.batchWrite(ctx, reqs); err != nil {
				return res, err
			}
			res.Written += len(writes)
			continue
		}
		done, err := p.putUnlessNewer(ctx, writes)
		res = res.Add(done)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// putUnlessNewer writes items concurrently, each only if the target item
// is absent or no newer than it.
func (p *Provider) putUnlessNewer(ctx context.Context, items []storage.Item) (storage.LoadResult, error) {
	var mu sync.Mutex
	var res storage.LoadResult
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, it := range items {
		g.Go(func() error {
			_, err := p.client.PutItem(gctx, &dynamodb.PutItemInput{
				TableName:                &p.table,
				Item:                     Encode(it),
				ConditionExpression:      aws.String("attribute_not_exists(#pk) OR #u <= :u"),
				ExpressionAttributeNames: map[string]string{"#pk": attrPK, "#u": attrUpdatedAt},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":u": &types.AttributeValueMemberN{Value: strconv.FormatInt(it.UpdatedAt, 10)},
				},
			})
			var ccf *types.ConditionalCheckFailedException
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.As(err, &ccf):
				res.KeptNewer++ // written on the target since the read
			case err != nil:
				return p.fail(fmt.Sprintf("put %s/%q", it.Namespace, it.Key), err)
			default:
				res.Written++
			}
			return nil
		})
	}
	err := g.Wait()
	return res, err
}

func (p *Provider) batchGet(ctx context.Context, batch []storage.Item) (map[[2]string]storage.Item, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(batch))
	seen := map[[2]string]bool{}
	for _, it := range batch {
		k := [2]string{it.Namespace, it.Key}
		if !seen[k] { // BatchGetItem rejects duplicate keys
			seen[k] = true
			keys = append(keys, keyOf(it.Namespace, it.Key))
		}
	}
	out := map[[2]string]storage.Item{}
	req := map[string]types.KeysAndAttributes{p.table: {Keys: keys, ConsistentRead: aws.Bool(true)}}
	for attempt := 0; len(req) > 0; attempt++ {
		res, err := p.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
		if err != nil {
			return nil, p.fail("batch get", err)
		}
		for _, raw := range res.Responses[p.table] {
			if it, err := decodeItem(raw); err == nil {
				out[[2]string{it.Namespace, it.Key}] = it
			}
		}
		req = res.UnprocessedKeys
		if err := backoff(ctx, attempt, len(req)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p *Provider) batchWrite(ctx context.Context, writes []types.WriteRequest) error {
	req := map[string][]types.WriteRequest{p.table: writes}
	for attempt := 0; len(writes) > 0 && len(req[p.table]) > 0; attempt++ {
		res, err := p.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: req})
		if err != nil {
			return p.fail("batch write", err)
		}
		req = res.UnprocessedItems
		if err := backoff(ctx, attempt, len(req[p.table])); err != nil {
			return err
		}
	}
	return nil
}

// backoff waits before retrying unprocessed work (throttling), giving up
// after ten tries (under 35 s of waiting).
func backoff(ctx context.Context, attempt, pending int) error {
	if pending == 0 {
		return nil
	}
	if attempt >= 10 {
		return fmt.Errorf("dynamodb: %d items still unprocessed after %d attempts", pending, attempt+1)
	}
	return pause.For(ctx, pause.Backoff(attempt, 50*time.Millisecond, 10*time.Second))
}
