// Package stores opens the store the configuration names, from the set of
// backends a runtime hands it: a binary links the drivers of its set and no
// other (the Lambda's leaves MongoDB and bbolt out, which its cold start
// would pay for in package init and size). Package backend has the set of
// every backend, for the container and the tools.
package stores

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// Option configures Set.Open.
type Option func(*Settings)

// Settings are what the options set, handed to the opener.
type Settings struct {
	// NoTableCheck: see WithoutTableCheck.
	NoTableCheck bool
}

// WithoutTableCheck opens DynamoDB without proving at start that the table
// answers (DescribeTable). The Lambda runtime uses it: there the start is
// the first invocation, which the check would delay by a round trip to
// learn what the update's own first call learns anyway (a wrong table
// fails that call, the update and the health check, each naming the
// error); the container keeps the check, so a misconfigured deployment
// fails at start.
func WithoutTableCheck() Option { return func(s *Settings) { s.NoTableCheck = true } }

// Opener opens one kind of store as cfg configures it.
type Opener func(ctx context.Context, cfg *config.Config, log *slog.Logger, s Settings) (storage.KVProvider, error)

// Set is the stores a runtime can open, by backend name (config.Backend*).
type Set map[string]Opener

// Open connects to the configured backend and logs which one and why. A
// backend outside the set is refused, naming what was asked for, why, and
// what this runtime opens.
func (s Set) Open(ctx context.Context, cfg *config.Config, log *slog.Logger, opts ...Option) (storage.KVProvider, error) {
	open, ok := s[cfg.Backend]
	if !ok {
		return nil, fmt.Errorf("storage: %s (%s) is not a store this runtime opens: it opens %s", cfg.Backend, cfg.BackendReason, s.names())
	}
	var set Settings
	for _, o := range opts {
		o(&set)
	}
	log.Info("storage backend selected", "backend", cfg.Backend, "reason", cfg.BackendReason)
	return open(ctx, cfg, log, set)
}

// names lists the set's backends, sorted: "dynamodb or memory".
func (s Set) names() string {
	names := slices.Sorted(maps.Keys(s))
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Memory opens the process's own store, lost at restart.
func Memory(_ context.Context, _ *config.Config, log *slog.Logger, _ Settings) (storage.KVProvider, error) {
	log.Warn("memory store: nothing survives a restart")
	return memory.New(), nil
}

// DynamoDB opens the configured table.
func DynamoDB(ctx context.Context, cfg *config.Config, log *slog.Logger, s Settings) (storage.KVProvider, error) {
	opts := []dynamodb.Option{dynamodb.WithLogger(log)}
	if s.NoTableCheck {
		opts = append(opts, dynamodb.WithoutTableCheck())
	}
	p, err := dynamodb.Open(ctx, dynamodb.Config{Table: cfg.DynamoDBTable, AWS: cfg.AWS}, opts...)
	if err != nil {
		return nil, err // not a nil *Provider in a non-nil interface
	}
	return p, nil
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
