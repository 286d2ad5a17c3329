package backend_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/storage/backend"
)

// An existing 0-byte BOLT_PATH is refused, the error saying how to start a
// new store there; with BOLT_CREATE it becomes one.
func TestAnEmptyBoltFileNeedsBoltCreate(t *testing.T) {
	for _, c := range []struct {
		name    string
		create  bool
		wantErr string
	}{
		{"without BOLT_CREATE it is refused", false, "BOLT_CREATE=true"},
		{"with BOLT_CREATE it is a new store", true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := &config.Config{Backend: config.BackendBolt, BoltPath: path, BoltCreate: c.create}
			p, err := backend.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
			if err == nil {
				defer p.Close(t.Context())
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("Open = %v, want an error saying %q", err, c.wantErr)
			}
		})
	}
}

// Describe names which store an operator's report came from, and never
// shows the MongoDB URL (a secret: it holds the password).
func TestDescribeNamesTheStoreWithoutItsSecret(t *testing.T) {
	tests := []struct {
		cfg  config.Config
		want string
	}{
		{config.Config{Backend: config.BackendBolt, BoltPath: "/data/miti99bot.db"}, "bolt file /data/miti99bot.db"},
		{config.Config{Backend: config.BackendDynamoDB, DynamoDBTable: "miti99bot"}, "dynamodb table miti99bot"},
		{config.Config{Backend: config.BackendMongoDB, MongoURL: config.Secret("mongodb://u:hunter2@db:27017"), MongoDatabase: "miti99bot"}, "mongodb database miti99bot"},
		{config.Config{Backend: config.BackendMemory}, "memory store (the process's own, lost at restart)"},
	}
	for _, tt := range tests {
		t.Run(tt.cfg.Backend, func(t *testing.T) {
			if got := backend.Describe(&tt.cfg); got != tt.want || strings.Contains(got, "hunter2") {
				t.Fatalf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}
