// Package mongodb is the MongoDB storage backend: one collection per module,
// documents {_id: key, value: BinData(0), updatedAt: int64 unix nanos}.
//
// The connection string is a credential. It is never logged, and every error
// that could carry it passes through redact first.
package mongodb

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"

	"github.com/miti99bot/miti99bot/internal/redact"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// DefaultConnectTimeout bounds connect + ping at start-up.
const DefaultConnectTimeout = 5 * time.Second

// Field names of the document shape shared with the migrator.
const (
	fieldValue     = "value"
	fieldUpdatedAt = "updatedAt"
)

// Config selects the server and database. Both are required.
type Config struct {
	URL      string // MONGO_URL: a credential
	Database string // MONGO_DATABASE
	// AllowFerretDB accepts a FerretDB server (MONGO_ALLOW_FERRETDB=true),
	// refused otherwise: see ErrFerretDB.
	AllowFerretDB bool
}

// Provider is a storage.KVProvider over one MongoDB database.
type Provider struct {
	client  *mongo.Client
	db      *mongo.Database
	now     func() time.Time
	secrets []string
}

type settings struct {
	timeout time.Duration
	logger  *slog.Logger
	now     func() time.Time
}

// The provider serves the bot and the migrator, on both sides of a copy.
var (
	_ storage.KVProvider = (*Provider)(nil)
	_ storage.Walker     = (*Provider)(nil)
	_ storage.Loader     = (*Provider)(nil)
	_ storage.Backend    = (*collection)(nil)
)

// Option configures Open.
type Option func(*settings)

// WithConnectTimeout replaces DefaultConnectTimeout.
func WithConnectTimeout(d time.Duration) Option { return func(s *settings) { s.timeout = d } }

// WithLogger sets where the start-up line goes (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *settings) { s.logger = l } }

// Open connects and pings within the connect timeout, and refuses a
// FerretDB server unless cfg allows it (ErrFerretDB). Its error names the
// database but never the URL.
func Open(ctx context.Context, cfg Config, opts ...Option) (*Provider, error) {
	set := settings{timeout: DefaultConnectTimeout, logger: slog.Default(), now: time.Now}
	for _, o := range opts {
		o(&set)
	}
	var missing []error
	if cfg.URL == "" {
		missing = append(missing, errors.New("MONGO_URL is not set"))
	}
	if cfg.Database == "" {
		missing = append(missing, errors.New("MONGO_DATABASE is not set"))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("mongodb: %w", errors.Join(missing...))
	}
	secrets := redact.URLSecrets(cfg.URL)
	fail := func(what string, err error) error {
		return fmt.Errorf("mongodb: %s (database %q): %w", what, cfg.Database, redact.Error(err, secrets...))
	}

	ctx, cancel := context.WithTimeout(ctx, set.timeout)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(cfg.URL).
		SetServerSelectionTimeout(set.timeout).
		SetConnectTimeout(set.timeout))
	if err != nil {
		return nil, fail("invalid connection settings", err)
	}
	if err := client.Ping(ctx, readpref.Primary()); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fail("cannot reach the server", err)
	}
	if err := checkServer(ctx, client, cfg.AllowFerretDB, set.logger); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fail("refused", err)
	}
	set.logger.Info("storage backend", "backend", "mongodb", "database", cfg.Database)
	return &Provider{client: client, db: client.Database(cfg.Database), now: set.now, secrets: secrets}, nil
}

// Database exposes the database for tests and tools that need raw access.
func (p *Provider) Database() *mongo.Database { return p.db }

// For returns the collection of module as a KVStore.
func (p *Provider) For(module string) storage.KVStore {
	return storage.Wrap(module, &collection{p: p, c: p.db.Collection(module)})
}

// Namespaces lists the collections that hold a document and have a valid
// module name (anything else in the database is not ours), sorted.
func (p *Provider) Namespaces(ctx context.Context) ([]string, error) {
	names, err := p.db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return nil, p.wrap("list collections", err)
	}
	out := make([]string, 0, len(names))
	for _, name := range names {
		if storage.ValidateModule(name) != nil {
			continue
		}
		err := p.db.Collection(name).FindOne(ctx, bson.D{}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
		switch {
		case errors.Is(err, mongo.ErrNoDocuments):
			continue // emptied by deletes
		case err != nil:
			return nil, p.wrap("probe collection "+name, err)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

// Items streams a collection in _id order through a cursor.
func (p *Provider) Items(ctx context.Context, namespace string) iter.Seq2[storage.Item, error] {
	return func(yield func(storage.Item, error) bool) {
		cur, err := p.db.Collection(namespace).Find(ctx, stringIDs(), options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			yield(storage.Item{}, p.wrap("scan "+namespace, err))
			return
		}
		defer cur.Close(context.WithoutCancel(ctx))
		for cur.Next(ctx) {
			it, err := decodeItem(namespace, cur.Current)
			if err != nil {
				yield(storage.Item{}, err)
				return
			}
			if !yield(it, nil) {
				return
			}
		}
		if err := cur.Err(); err != nil {
			yield(storage.Item{}, p.wrap("scan "+namespace, err))
		}
	}
}

// Close disconnects the client.
func (p *Provider) Close(ctx context.Context) error {
	return p.wrap("disconnect", p.client.Disconnect(ctx))
}

// wrap redacts a driver error; nil stays nil.
func (p *Provider) wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("mongodb: %s: %w", what, redact.Error(err, p.secrets...))
}

// stringIDs matches every document whose _id is a string. It is a range on
// _id rather than {} so it uses the index and skips foreign documents.
func stringIDs() bson.D {
	return bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: ""}}}}
}
