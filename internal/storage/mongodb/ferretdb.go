package mongodb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// ErrFerretDB: the server is FerretDB, which the bot refuses unless told.
// FerretDB applies a filtered update as a query and then a write, so the
// storage contract's compare-and-swap is not atomic there, and every state
// that rests on it (money, games, update and cron slot claims, the polling
// lease, pushes, timers) may apply twice under a race. Its filtered delete
// is the same query and then a delete by _id, so the conditional delete is
// not atomic either: racing conditional deletes of one value still have one
// winner (the delete counts the rows it removed), but a write landing
// between its query and its delete is deleted with the key, so a timer's
// cancel and its fire can both win.
var ErrFerretDB = errors.New("the server is FerretDB, whose filtered updates are not atomic: " +
	"the compare-and-swap that money, games, claims and the polling lease rely on can apply twice; " +
	"use MongoDB or the file store (KV_PROVIDER=bolt), or set MONGO_ALLOW_FERRETDB=true for tests and local trials")

// ferretDBWarning is the one line logged when FerretDB is accepted.
const ferretDBWarning = "storage backend is FerretDB (MONGO_ALLOW_FERRETDB=true): its filtered updates are not atomic, " +
	"so racing writes to money, games, update and cron slot claims, the polling lease and timers may apply twice; tests and local trials only"

// isFerretDB reports whether a buildInfo answer is FerretDB's: it adds
// fields of its own (ferretdbVersion, ferretdbFeatures) beside MongoDB's.
func isFerretDB(buildInfo bson.Raw) bool {
	elems, err := buildInfo.Elements()
	if err != nil {
		return false
	}
	for _, e := range elems {
		if strings.HasPrefix(strings.ToLower(e.Key()), "ferretdb") {
			return true
		}
	}
	return false
}

// checkServer refuses FerretDB unless allowed, and warns once when it is.
func checkServer(ctx context.Context, client *mongo.Client, allow bool, log *slog.Logger) error {
	raw, err := client.Database("admin").RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Raw()
	if err != nil {
		return fmt.Errorf("buildInfo: %w", err)
	}
	if !isFerretDB(raw) {
		return nil
	}
	if !allow {
		return ErrFerretDB
	}
	log.Warn(ferretDBWarning)
	return nil
}
