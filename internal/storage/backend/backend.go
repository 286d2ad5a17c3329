// Package backend opens the storage provider the configuration names. It is
// the one place that knows every backend; the core and the modules see only
// storage.KVProvider.
package backend

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
)

// Option configures Open.
type Option func(*settings)

type settings struct{ noTableCheck bool }

// WithoutTableCheck opens DynamoDB without proving at start that the table
// answers (DescribeTable). The Lambda runtime uses it: there the start is
// the first invocation, which the check would delay by a round trip to
// learn what the update's own first call learns anyway (a wrong table
// fails that call, the update and the health check, each naming the
// error); the container keeps the check, so a misconfigured deployment
// fails at start.
func WithoutTableCheck() Option { return func(s *settings) { s.noTableCheck = true } }

// Open connects to the configured backend and logs which one and why.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger, opts ...Option) (storage.KVProvider, error) {
	var set settings
	for _, o := range opts {
		o(&set)
	}
	log.Info("storage backend selected", "backend", cfg.Backend, "reason", cfg.BackendReason)
	switch cfg.Backend {
	case config.BackendMongoDB:
		return mongodb.Open(ctx, mongodb.Config{URL: cfg.MongoURL.Reveal(), Database: cfg.MongoDatabase, AllowFerretDB: cfg.MongoAllowFerretDB}, mongodb.WithLogger(log))
	case config.BackendDynamoDB:
		dopts := []dynamodb.Option{dynamodb.WithLogger(log)}
		if set.noTableCheck {
			dopts = append(dopts, dynamodb.WithoutTableCheck())
		}
		return dynamodb.Open(ctx, dynamodb.Config{Table: cfg.DynamoDBTable, AWS: cfg.AWS}, dopts...)
	case config.BackendBolt:
		log.Info("embedded store", "path", cfg.BoltPath)
		return openBolt(cfg)
	case config.BackendMemory:
		log.Warn("memory store: nothing survives a restart")
		return memory.New(), nil
	}
	return nil, fmt.Errorf("storage: unknown backend %q", cfg.Backend)
}

// Describe names the store cfg configures, for an operator reading what
// came out of it: the kind and which one (never the MongoDB URL, a secret).
func Describe(cfg *config.Config) string {
	switch cfg.Backend {
	case config.BackendMongoDB:
		return "mongodb database " + cfg.MongoDatabase
	case config.BackendDynamoDB:
		return "dynamodb table " + cfg.DynamoDBTable
	case config.BackendBolt:
		return "bolt file " + cfg.BoltPath
	case config.BackendMemory:
		return "memory store (the process's own, lost at restart)"
	}
	return cfg.Backend
}

// openBolt opens the file, as a new store if BOLT_CREATE says an empty one
// may be; a refused empty file's error says so.
func openBolt(cfg *config.Config) (storage.KVProvider, error) {
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
