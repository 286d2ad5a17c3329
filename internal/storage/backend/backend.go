// Package backend opens any storage provider the configuration names. It is
// the one place that knows every backend (the container and the tools open
// with it); the core and the modules see only storage.KVProvider, and the
// Lambda opens from its own smaller set (package stores).
package backend

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/storage/stores"
)

// Option configures Open.
type Option = stores.Option

// WithoutTableCheck opens DynamoDB without proving at start that the table
// answers: see stores.WithoutTableCheck.
func WithoutTableCheck() Option { return stores.WithoutTableCheck() }

// Every is the set of every backend.
var Every = stores.Set{
	config.BackendMongoDB:  openMongo,
	config.BackendDynamoDB: stores.DynamoDB,
	config.BackendBolt:     openBolt,
	config.BackendMemory:   stores.Memory,
}

// Open connects to the configured backend, any of them, and logs which one
// and why.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger, opts ...Option) (storage.KVProvider, error) {
	return Every.Open(ctx, cfg, log, opts...)
}

// Describe names the store cfg configures, for an operator reading what
// came out of it: the kind and which one (never the MongoDB URL, a secret).
func Describe(cfg *config.Config) string { return stores.Describe(cfg) }

func openMongo(ctx context.Context, cfg *config.Config, log *slog.Logger, _ stores.Settings) (storage.KVProvider, error) {
	p, err := mongodb.Open(ctx, mongodb.Config{URL: cfg.MongoURL.Reveal(), Database: cfg.MongoDatabase, AllowFerretDB: cfg.MongoAllowFerretDB}, mongodb.WithLogger(log))
	if err != nil {
		return nil, err // not a nil *Provider in a non-nil interface
	}
	return p, nil
}

// openBolt opens the file, as a new store if BOLT_CREATE says an empty one
// may be; a refused empty file's error says so.
func openBolt(_ context.Context, cfg *config.Config, log *slog.Logger, _ stores.Settings) (storage.KVProvider, error) {
	log.Info("embedded store", "path", cfg.BoltPath)
	var opts []bolt.Option
	if cfg.BoltCreate {
		opts = append(opts, bolt.CreateIfEmpty())
	}
	p, err := bolt.Open(cfg.BoltPath, opts...)
	switch {
	case errors.Is(err, bolt.ErrEmpty):
		return nil, fmt.Errorf("%w; or set BOLT_CREATE=true to start a new store in it", err)
	case err != nil:
		return nil, err // not a nil *Provider in a non-nil interface
	}
	return p, nil
}
