package mongodb_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// serverIsFerretDB asks the test server itself, so that the rule is checked
// on FerretDB (make test) and on MongoDB (make test-mongo) alike.
func serverIsFerretDB(t *testing.T, url string) bool {
	t.Helper()
	c, err := mongo.Connect(options.Client().ApplyURI(url))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(context.Background())
	raw, err := c.Database("admin").RunCommand(t.Context(), bson.D{{Key: "buildInfo", Value: 1}}).Raw()
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.LookupErr("ferretdbVersion")
	return err == nil
}

func TestOpenRefusesFerretDBUnlessAllowed(t *testing.T) {
	url := testenv.Require(t, "MONGODB_TEST_URL")
	ferret := serverIsFerretDB(t, url)
	for _, allow := range []bool{false, true} {
		var logs bytes.Buffer
		p, err := mongodb.Open(t.Context(), mongodb.Config{URL: url, Database: "ferretcheck", AllowFerretDB: allow},
			mongodb.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
		if p != nil {
			defer p.Close(context.Background())
		}
		refused := errors.Is(err, mongodb.ErrFerretDB)
		if want := ferret && !allow; refused != want {
			t.Fatalf("FerretDB=%v allow=%v: Open err = %v, refused %v, want %v", ferret, allow, err, refused, want)
		}
		if refused {
			for _, says := range []string{"FerretDB", "not atomic", "MongoDB", "KV_PROVIDER=bolt", "MONGO_ALLOW_FERRETDB=true"} {
				if !strings.Contains(err.Error(), says) {
					t.Errorf("the refusal %q does not say %q", err, says)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("FerretDB=%v allow=%v: Open: %v", ferret, allow, err)
		}
		warns := strings.Count(logs.String(), `"level":"WARN"`)
		if want := map[bool]int{true: 1, false: 0}[ferret]; warns != want || (ferret && !strings.Contains(logs.String(), "not atomic")) {
			t.Errorf("FerretDB=%v allowed: %d WARN lines, want %d naming the broken promise; logs:\n%s", ferret, warns, want, logs.String())
		}
	}
}
