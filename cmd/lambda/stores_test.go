package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// The function serves from DynamoDB or the memory store only (its binary
// links no other driver): a configuration naming another store stops the
// start, saying which store was asked for, why, and which it can open.
func TestTheFunctionRefusesAStoreItDoesNotServeFrom(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"bbolt", map[string]string{"KV_PROVIDER": "bolt", "BOLT_PATH": filepath.Join(t.TempDir(), "bot.db")}, []string{"bolt", "KV_PROVIDER=bolt", "dynamodb", "memory"}},
		{"MongoDB", map[string]string{"MONGO_URL": "mongodb://127.0.0.1:9/", "MONGO_DATABASE": "bot"}, []string{"mongodb", "MONGO_URL is set", "dynamodb", "memory"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := map[string]string{"TELEGRAM_BOT_TOKEN": "1:test", "TELEGRAM_WEBHOOK_SECRET": "test"}
			for k, v := range c.env {
				env[k] = v
			}
			_, err := setup(t.Context(), func(k string) string { return env[k] }, io.Discard)
			if err == nil {
				t.Fatal("the function started")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal does not say %q: %v", w, err)
				}
			}
		})
	}
}
