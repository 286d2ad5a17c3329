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

// Open connects to the configured backend and logs which one and why.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger) (storage.KVProvider, error) {
	log.Info("storage backend selected", "backend", cfg.Backend, "reason", cfg.BackendReason)
	switch cfg.Backend {
	case config.BackendMongoDB:
		return mongodb.Open(ctx, mongodb.Config{URL: cfg.MongoURL.Reveal(), Database: cfg.MongoDatabase}, mongodb.WithLogger(log))
	case config.BackendDynamoDB:
		return dynamodb.Open(ctx, dynamodb.Config{Table: cfg.DynamoDBTable, AWS: cfg.AWS}, dynamodb.WithLogger(log))
	case config.BackendBolt:
		log.Info("embedded store", "path", cfg.BoltPath)
		return bolt.Open(cfg.BoltPath)
	case config.BackendMemory:
		log.Warn("memory store: nothing survives a restart")
		return memory.New(), nil
	}
	return nil, fmt.Errorf("storage: unknown backend %q", cfg.Backend)
}
