// Package backend opens the storage provider the configuration names. It is
// the one place that knows every backend; the core and the modules see only
// storage.KVProvider.
package backend

import (
	"context"
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
		return mongodb.Open(ctx, mongodb.Config{URL: cfg.MongoURL.Reveal(), Database: cfg.MongoDatabase}, mongodb.WithLogger(log))
	case config.BackendDynamoDB:
		dopts := []dynamodb.Option{dynamodb.WithLogger(log)}
		if set.noTableCheck {
			dopts = append(dopts, dynamodb.WithoutTableCheck())
		}
		return dynamodb.Open(ctx, dynamodb.Config{Table: cfg.DynamoDBTable, AWS: cfg.AWS}, dopts...)
	case config.BackendBolt:
		log.Info("embedded store", "path", cfg.BoltPath)
		return bolt.Open(cfg.BoltPath)
	case config.BackendMemory:
		log.Warn("memory store: nothing survives a restart")
		return memory.New(), nil
	}
	return nil, fmt.Errorf("storage: unknown backend %q", cfg.Backend)
}
