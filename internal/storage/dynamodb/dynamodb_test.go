package dynamodb_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.KVProvider { return backendtest.Dynamo(t) })
}

func TestItemShape(t *testing.T) {
	p := backendtest.Dynamo(t)
	ctx := t.Context()
	if err := p.For("mod").Put(ctx, "k", []byte{0xFF, 0x00}); err != nil {
		t.Fatal(err)
	}
	out, err := p.Client().GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(p.Table()),
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "mod"},
			"sk": &types.AttributeValueMemberS{Value: "k"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := out.Item["value"].(*types.AttributeValueMemberB); !ok || string(b.Value) != "\xff\x00" {
		t.Fatalf("value = %#v, want B ff00", out.Item["value"])
	}
	n, ok := out.Item["updatedAt"].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("updatedAt = %#v, want N", out.Item["updatedAt"])
	}
	if _, err := strconv.ParseInt(n.Value, 10, 64); err != nil {
		t.Fatalf("updatedAt %q is not integer nanoseconds", n.Value)
	}
}

func TestReadsOlderAndMalformedItems(t *testing.T) {
	p := backendtest.Dynamo(t)
	ctx := t.Context()
	put := func(sk string, attrs map[string]types.AttributeValue) {
		attrs["pk"] = &types.AttributeValueMemberS{Value: "mod"}
		attrs["sk"] = &types.AttributeValueMemberS{Value: sk}
		if _, err := p.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(p.Table()), Item: attrs}); err != nil {
			t.Fatal(err)
		}
	}
	put("legacy", map[string]types.AttributeValue{"value": &types.AttributeValueMemberS{Value: "text value"}})
	put("legacy-cad", map[string]types.AttributeValue{"value": &types.AttributeValueMemberS{Value: "text value"}})
	put("novalue", map[string]types.AttributeValue{"updatedAt": &types.AttributeValueMemberN{Value: "1"}})
	put("number", map[string]types.AttributeValue{"value": &types.AttributeValueMemberN{Value: "42"}})
	s := p.For("mod")

	t.Run("an S value from the old backend reads as its bytes", func(t *testing.T) {
		v, err := s.Get(ctx, "legacy")
		if err != nil || string(v) != "text value" {
			t.Fatalf("Get = %q, %v", v, err)
		}
	})
	t.Run("CAS over an S value matches its bytes", func(t *testing.T) {
		if err := s.CompareAndSwap(ctx, "legacy", []byte("text value"), []byte("new")); err != nil {
			t.Fatalf("CAS: %v", err)
		}
	})
	t.Run("a conditional delete of an S value matches its bytes", func(t *testing.T) {
		if err := s.CompareAndDelete(ctx, "legacy-cad", []byte("text value")); err != nil {
			t.Fatalf("CompareAndDelete: %v", err)
		}
	})
	for _, key := range []string{"novalue", "number"} {
		t.Run("an item with "+key+" is a clear error, not a panic", func(t *testing.T) {
			_, err := s.Get(ctx, key)
			if err == nil {
				t.Fatal("Get succeeded")
			}
			t.Log(err)
		})
	}
}

// The benchmarks compare the provider with the same call made through the
// raw SDK, in one run, so the ratio shows what the abstraction costs.
func BenchmarkDynamoGet(b *testing.B) {
	p := backendtest.Dynamo(b)
	ctx := context.Background()
	s := p.For("bench")
	if err := s.Put(ctx, "k", make([]byte, 256)); err != nil {
		b.Fatal(err)
	}
	in := &dynamodb.GetItemInput{TableName: aws.String(p.Table()), Key: rawKey("k"), ConsistentRead: aws.Bool(true),
		ProjectionExpression: aws.String("#v"), ExpressionAttributeNames: map[string]string{"#v": "value"}}
	backendtest.SideBySide(b,
		func() error { _, err := s.Get(ctx, "k"); return err },
		func() error { _, err := p.Client().GetItem(ctx, in); return err })
}

func BenchmarkDynamoPut(b *testing.B) {
	p := backendtest.Dynamo(b)
	ctx := context.Background()
	s, v := p.For("bench"), make([]byte, 256)
	backendtest.SideBySide(b,
		func() error { return s.Put(ctx, "k", v) },
		func() error {
			item := rawKey("r")
			item["value"] = &types.AttributeValueMemberB{Value: v}
			item["updatedAt"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().UnixNano(), 10)}
			_, err := p.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(p.Table()), Item: item})
			return err
		})
}

func BenchmarkDynamoCAS(b *testing.B) {
	p := backendtest.Dynamo(b)
	ctx := context.Background()
	s := p.For("bench")
	vals := [2][]byte{[]byte("value-a"), []byte("value-b")}
	for _, k := range []string{"k", "r"} {
		if err := s.Put(ctx, k, vals[0]); err != nil {
			b.Fatal(err)
		}
	}
	i, j := 0, 0
	backendtest.SideBySide(b,
		func() error {
			err := s.CompareAndSwap(ctx, "k", vals[i], vals[1-i])
			i = 1 - i
			return err
		},
		func() error {
			item := rawKey("r")
			item["value"] = &types.AttributeValueMemberB{Value: vals[1-j]}
			item["updatedAt"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().UnixNano(), 10)}
			_, err := p.Client().PutItem(ctx, &dynamodb.PutItemInput{
				TableName: aws.String(p.Table()), Item: item,
				ConditionExpression:       aws.String("#v = :e OR #v = :es"),
				ExpressionAttributeNames:  map[string]string{"#v": "value"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberB{Value: vals[j]}, ":es": &types.AttributeValueMemberS{Value: string(vals[j])}},
			})
			j = 1 - j
			return err
		})
}

func rawKey(sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "bench"},
		"sk": &types.AttributeValueMemberS{Value: sk},
	}
}
