package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// partition is one module's namespace; storage.Wrap validates its inputs.
type partition struct {
	p  *Provider
	pk string
}

func (n *partition) Get(ctx context.Context, key string) ([]byte, error) {
	out, err := n.p.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                &n.p.table,
		Key:                      keyOf(n.pk, key),
		ConsistentRead:           aws.Bool(true),
		ProjectionExpression:     aws.String("#v"),
		ExpressionAttributeNames: map[string]string{"#v": attrValue},
	})
	if err != nil {
		return nil, n.p.fail("get item", err)
	}
	if out.Item == nil {
		return nil, storage.ErrNotFound
	}
	return decodeValue(out.Item)
}

func (n *partition) Put(ctx context.Context, key string, val []byte) error {
	_, err := n.p.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: &n.p.table,
		Item:      encode(n.pk, key, val, n.p.now().UnixNano()),
	})
	if err != nil {
		return n.p.fail("put item", err)
	}
	return nil
}

func (n *partition) Delete(ctx context.Context, key string) error {
	_, err := n.p.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &n.p.table, Key: keyOf(n.pk, key)})
	if err != nil {
		return n.p.fail("delete item", err)
	}
	return nil
}

// List queries the partition through every page; DynamoDB returns sort keys
// in UTF-8 byte order, which is the contract's order.
func (n *partition) List(ctx context.Context, prefix string) ([]string, error) {
	keys := []string{}
	pages := dynamodb.NewQueryPaginator(n.p.client, n.p.query(n.pk, prefix, true))
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, n.p.fail("query", err)
		}
		for _, item := range page.Items {
			sk, ok := item[attrSK].(*types.AttributeValueMemberS)
			if !ok {
				return nil, fmt.Errorf("dynamodb: %w: sk is not a string", errBadItem)
			}
			keys = append(keys, sk.Value)
		}
	}
	return keys, nil
}

// CompareAndSwap is a conditional PutItem: attribute_not_exists(pk) for "must
// be absent", #v = :expected otherwise. DynamoDB evaluates the condition and
// the write atomically.
func (n *partition) CompareAndSwap(ctx context.Context, key string, expected, val []byte) error {
	in := &dynamodb.PutItemInput{
		TableName: &n.p.table,
		Item:      encode(n.pk, key, val, n.p.now().UnixNano()),
	}
	if expected == nil {
		in.ConditionExpression = aws.String("attribute_not_exists(#pk)")
		in.ExpressionAttributeNames = map[string]string{"#pk": attrPK}
	} else {
		in.ConditionExpression = aws.String("#v = :expected")
		in.ExpressionAttributeNames = map[string]string{"#v": attrValue}
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":expected": &types.AttributeValueMemberB{Value: expected}}
		if utf8.Valid(expected) && len(expected) > 0 {
			// The old backend stored values as S; without this a CAS loop
			// over such a value would conflict forever.
			*in.ConditionExpression += " OR #v = :expectedS"
			in.ExpressionAttributeValues[":expectedS"] = &types.AttributeValueMemberS{Value: string(expected)}
		}
	}
	_, err := n.p.client.PutItem(ctx, in)
	var failed *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &failed):
		return storage.ErrConflict
	case err != nil:
		return n.p.fail("conditional put", err)
	}
	return nil
}

// CompareAndDelete is a DeleteItem conditioned on the stored value, which
// DynamoDB evaluates atomically with the delete; an absent item fails the
// condition too (its #v does not exist, so it equals nothing).
func (n *partition) CompareAndDelete(ctx context.Context, key string, expected []byte) error {
	in := &dynamodb.DeleteItemInput{
		TableName:                 &n.p.table,
		Key:                       keyOf(n.pk, key),
		ConditionExpression:       aws.String("#v = :expected"),
		ExpressionAttributeNames:  map[string]string{"#v": attrValue},
		ExpressionAttributeValues: map[string]types.AttributeValue{":expected": &types.AttributeValueMemberB{Value: expected}},
	}
	if utf8.Valid(expected) && len(expected) > 0 {
		// The old backend stored values as S, as in CompareAndSwap.
		*in.ConditionExpression += " OR #v = :expectedS"
		in.ExpressionAttributeValues[":expectedS"] = &types.AttributeValueMemberS{Value: string(expected)}
	}
	_, err := n.p.client.DeleteItem(ctx, in)
	var failed *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &failed):
		return storage.ErrConflict
	case err != nil:
		return n.p.fail("conditional delete", err)
	}
	return nil
}
