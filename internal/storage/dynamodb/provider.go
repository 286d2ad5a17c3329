// Package dynamodb is the DynamoDB storage backend: one table, partition key
// pk (S) = module, sort key sk (S) = key, value as B (binary, so any bytes
// survive) and updatedAt as N (Unix nanoseconds). Reads are consistent.
//
// The endpoint comes from the SDK's standard configuration, so
// AWS_ENDPOINT_URL_DYNAMODB points it at a local server with no custom setting.
package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// DefaultInitTimeout bounds loading the AWS configuration and the first call.
const DefaultInitTimeout = 5 * time.Second

// Attribute names of the item shape shared with the migrator.
const (
	attrPK        = "pk"
	attrSK        = "sk"
	attrValue     = "value" // a reserved word in expressions: always use #v
	attrUpdatedAt = "updatedAt"
)

// Config names the table. It is required.
type Config struct {
	Table string // DYNAMODB_TABLE
	// AWS is where the client's region, credentials and endpoint come from
	// (awsenv.Lambda in the Lambda binary, defaultchain.Load elsewhere).
	AWS awsenv.Source
}

// Provider is a storage.KVProvider over one DynamoDB table.
type Provider struct {
	client *dynamodb.Client
	table  string
	now    func() time.Time
}

type settings struct {
	noCheck   bool
	timeout   time.Duration
	logger    *slog.Logger
	now       func() time.Time
	clientOpt []func(*dynamodb.Options)
}

// The provider serves the bot and the migrator, on both sides of a copy.
var (
	_ storage.KVProvider = (*Provider)(nil)
	_ storage.Walker     = (*Provider)(nil)
	_ storage.Loader     = (*Provider)(nil)
	_ storage.Backend    = (*partition)(nil)
)

// Option configures Open.
type Option func(*settings)

// WithInitTimeout replaces DefaultInitTimeout.
func WithInitTimeout(d time.Duration) Option { return func(s *settings) { s.timeout = d } }

// WithLogger sets where the start-up line goes (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *settings) { s.logger = l } }

// WithoutTableCheck skips Open's DescribeTable, for callers whose IAM
// policy grants only what they use (the migrator's source: dynamodb:Scan).
func WithoutTableCheck() Option { return func(s *settings) { s.noCheck = true } }

// WithClientOptions adjusts the SDK client (tests point it at their own server).
func WithClientOptions(f func(*dynamodb.Options)) Option {
	return func(s *settings) { s.clientOpt = append(s.clientOpt, f) }
}

// Open loads the AWS configuration and checks that the table answers, within
// the init timeout, so a wrong endpoint or a missing table fails at start-up.
func Open(ctx context.Context, cfg Config, opts ...Option) (*Provider, error) {
	set := settings{timeout: DefaultInitTimeout, logger: slog.Default(), now: time.Now}
	for _, o := range opts {
		o(&set)
	}
	if cfg.Table == "" {
		return nil, errors.New("dynamodb: DYNAMODB_TABLE is not set")
	}
	ctx, cancel := context.WithTimeout(ctx, set.timeout)
	defer cancel()
	client, err := NewClient(ctx, cfg.AWS, set.clientOpt...)
	if err != nil {
		return nil, err
	}
	if !set.noCheck {
		if _, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &cfg.Table}); err != nil {
			return nil, fmt.Errorf("dynamodb: table %q does not answer: %w", cfg.Table, err)
		}
	}
	set.logger.Info("storage backend", "backend", "dynamodb", "table", cfg.Table)
	return &Provider{client: client, table: cfg.Table, now: set.now}, nil
}

// NewClient builds an SDK client from the AWS configuration source
// (which honours AWS_ENDPOINT_URL_DYNAMODB).
func NewClient(ctx context.Context, source awsenv.Source, opts ...func(*dynamodb.Options)) (*dynamodb.Client, error) {
	if source == nil {
		return nil, fmt.Errorf("dynamodb: %w", awsenv.ErrNoSource)
	}
	awsCfg, err := source(ctx)
	if err != nil {
		return nil, fmt.Errorf("dynamodb: load AWS configuration: %w", err)
	}
	return dynamodb.NewFromConfig(awsCfg, opts...), nil
}

// Client exposes the SDK client for tests and tools that need raw access.
func (p *Provider) Client() *dynamodb.Client { return p.client }

// Table is the table name.
func (p *Provider) Table() string { return p.table }

// For returns module's partition as a KVStore.
func (p *Provider) For(module string) storage.KVStore {
	return storage.Wrap(module, &partition{p: p, pk: module})
}

// Namespaces scans the table's partition keys. It reads the whole table, as
// DynamoDB has no cheaper way to list partitions; only tools call it.
func (p *Provider) Namespaces(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	pages := dynamodb.NewScanPaginator(p.client, &dynamodb.ScanInput{
		TableName:                &p.table,
		ProjectionExpression:     aws.String("#pk"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK},
		ConsistentRead:           aws.Bool(true),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, p.fail("scan", err)
		}
		for _, item := range page.Items {
			if pk, ok := item[attrPK].(*types.AttributeValueMemberS); ok && storage.ValidateModule(pk.Value) == nil {
				seen[pk.Value] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for ns := range seen {
		out = append(out, ns)
	}
	slices.Sort(out)
	return out, nil
}

// Items queries one partition page by page, in sort-key order.
func (p *Provider) Items(ctx context.Context, namespace string) iter.Seq2[storage.Item, error] {
	return func(yield func(storage.Item, error) bool) {
		pages := dynamodb.NewQueryPaginator(p.client, p.query(namespace, "", false))
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				yield(storage.Item{}, p.fail("query "+namespace, err))
				return
			}
			for _, raw := range page.Items {
				it, err := decodeItem(raw)
				if err != nil {
					yield(storage.Item{}, err)
					return
				}
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}

// query selects a partition, or the keys of it starting with prefix.
func (p *Provider) query(pk, prefix string, keysOnly bool) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{
		TableName:                 &p.table,
		ConsistentRead:            aws.Bool(true),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
	}
	if prefix != "" { // begins_with rejects an empty operand
		*in.KeyConditionExpression += " AND begins_with(#sk, :prefix)"
		in.ExpressionAttributeNames["#sk"] = attrSK
		in.ExpressionAttributeValues[":prefix"] = &types.AttributeValueMemberS{Value: prefix}
	}
	if keysOnly {
		in.ProjectionExpression = aws.String("#sk")
		in.ExpressionAttributeNames["#sk"] = attrSK
	}
	return in
}

// Close has nothing to release: the SDK's HTTP client holds no session.
func (p *Provider) Close(context.Context) error { return nil }

// fail wraps an error of a call on the table, naming the table when it is
// missing: the Lambda runtime (backend.WithoutTableCheck) and the
// migrator's source (WithoutTableCheck) open it without checking, so a
// wrong table shows at the first call. Every call on the table wraps its
// error here.
func (p *Provider) fail(what string, err error) error {
	if missing := (*types.ResourceNotFoundException)(nil); errors.As(err, &missing) {
		return fmt.Errorf("dynamodb: %s: table %q not found: %w", what, p.table, err)
	}
	return fmt.Errorf("dynamodb: %s: %w", what, err)
}
