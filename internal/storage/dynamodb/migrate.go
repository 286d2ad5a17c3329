package dynamodb

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/pause"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Walk scans the whole table, page by page: the migrator's source needs
// only dynamodb:Scan. Items the codec cannot read are passed on with a
// Problem, never skipped.
func (p *Provider) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	pages := dynamodb.NewScanPaginator(p.client, &dynamodb.ScanInput{TableName: &p.table, ConsistentRead: aws.Bool(true)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("dynamodb: scan: %w", err)
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

// batchLimit is BatchWriteItem's and a sensible BatchGetItem size.
const batchLimit = 25

// Load writes items with BatchWriteItem (retrying unprocessed items with
// back-off), using the same encoding as Put. It first reads the batch back
// with BatchGetItem and writes only items that differ, so a repeated load
// changes nothing and says so.
func (p *Provider) Load(ctx context.Context, items []storage.Item) (int, error) {
	changed := 0
	for start := 0; start < len(items); start += batchLimit {
		batch := items[start:min(start+batchLimit, len(items))]
		existing, err := p.batchGet(ctx, batch)
		if err != nil {
			return changed, err
		}
		var writes []types.WriteRequest
		for _, it := range batch {
			if cur, ok := existing[[2]string{it.Namespace, it.Key}]; ok && bytes.Equal(cur.Value, it.Value) && cur.UpdatedAt == it.UpdatedAt {
				continue
			}
			writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: Encode(it)}})
		}
		if err := p.batchWrite(ctx, writes); err != nil {
			return changed, err
		}
		changed += len(writes)
	}
	return changed, nil
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
			return nil, fmt.Errorf("dynamodb: batch get: %w", err)
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
			return fmt.Errorf("dynamodb: batch write: %w", err)
		}
		req = res.UnprocessedItems
		if err := backoff(ctx, attempt, len(req[p.table])); err != nil {
			return err
		}
	}
	return nil
}

// backoff waits before retrying unprocessed work (throttling), giving up
// after a while.
func backoff(ctx context.Context, attempt, pending int) error {
	if pending == 0 {
		return nil
	}
	if attempt >= 10 {
		return fmt.Errorf("dynamodb: %d items still unprocessed after %d attempts", pending, attempt+1)
	}
	return pause.For(ctx, time.Duration(50<<attempt)*time.Millisecond)
}
