package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/cmdmain"
	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/redact"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
)

// side is one end of the migration.
type side struct {
	kind, table, database, mongoURL, path string
	allowFerretDB                         bool // MONGO_ALLOW_FERRETDB=true
}

// endpoint is what the migrator needs of a provider.
type endpoint interface {
	storage.KVProvider
	storage.Walker
	storage.Loader
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var from, to side
	fs.StringVar(&from.kind, "from", "", "source backend: dynamodb, mongodb, bolt, or archive (a botctl backup snapshot, --from-path)")
	fs.StringVar(&to.kind, "to", "", "target backend: dynamodb, mongodb or bolt")
	fs.StringVar(&from.path, "from-path", getenv("BOLT_PATH"), "source bolt file (default $BOLT_PATH), or the archive")
	fs.StringVar(&to.path, "to-path", getenv("BOLT_PATH"), "target bolt file (default $BOLT_PATH)")
	fs.StringVar(&from.table, "from-table", getenv("DYNAMODB_TABLE"), "source DynamoDB table (default $DYNAMODB_TABLE)")
	fs.StringVar(&to.table, "to-table", getenv("DYNAMODB_TABLE"), "target DynamoDB table (default $DYNAMODB_TABLE)")
	fs.StringVar(&from.database, "from-database", getenv("MONGO_DATABASE"), "source MongoDB database (default $MONGO_DATABASE)")
	fs.StringVar(&to.database, "to-database", getenv("MONGO_DATABASE"), "target MongoDB database (default $MONGO_DATABASE)")
	dryRun := fs.Bool("dry-run", false, "print per-module counts and bytes (and, with --mirror, what it would delete); write nothing")
	verify := fs.Bool("verify", false, "is the target an exact copy of the source? compare per module and per item; write nothing")
	afterCutover := fs.Bool("verify-after-cutover", false, "was anything of the source lost or rolled back on the target since the copy? write nothing")
	skipInvalid := fs.Bool("skip-invalid", false, "copy the valid items and report invalid ones instead of failing")
	overwrite := fs.Bool("overwrite", false, "replace target items even when they are newer than the source's, and bring back items deleted on the target")
	mirror := fs.Bool("mirror", false, "make the target exactly the source: overwrite, and delete target items the source lacks (needs --confirm-target)")
	confirm := fs.String("confirm-target", "", "with --mirror: the target as this tool names it, e.g. \"dynamodb table miti99bot\"")
	maxSkew := fs.Duration("max-clock-skew", migrate.DefaultMaxSkew, "a copy or mirror refuses to start when a store server's clock is certainly further than this from this machine's (0: no check)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: migrate --from <backend> --to <backend> [--dry-run | --verify | --verify-after-cutover | --mirror --confirm-target=<target>] [flags]")
		fs.PrintDefaults()
	}
	// Help is asked for before anything opens, wherever -h stands.
	if cmdmain.WantsHelp(args) {
		fs.SetOutput(stdout)
		fs.Usage()
		return flag.ErrHelp
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: migrate takes only flags (see migrate -h)", fs.Arg(0))
	}
	// The MongoDB URL is a credential: environment only, never a flag
	// (flags show in process lists). A pair of MongoDB deployments can use
	// MIGRATE_FROM_MONGO_URL / MIGRATE_TO_MONGO_URL.
	from.mongoURL = firstSet(getenv("MIGRATE_FROM_MONGO_URL"), getenv("MONGO_URL"))
	to.mongoURL = firstSet(getenv("MIGRATE_TO_MONGO_URL"), getenv("MONGO_URL"))
	from.allowFerretDB = getenv("MONGO_ALLOW_FERRETDB") == "true"
	to.allowFerretDB = from.allowFerretDB
	secrets := append(redact.URLSecrets(from.mongoURL), redact.URLSecrets(to.mongoURL)...)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	if from == to {
		return errors.New("source and target are the same store")
	}
	src, err := open(ctx, from, true, log)
	if err != nil {
		return fmt.Errorf("source: %w", redact.Error(err, secrets...))
	}
	defer src.Close(context.WithoutCancel(ctx))
	dst, err := open(ctx, to, false, log)
	if err != nil {
		return fmt.Errorf("target: %w", redact.Error(err, secrets...))
	}
	defer dst.Close(context.WithoutCancel(ctx))
	fmt.Fprintf(stderr, "migrate: %s -> %s\n", describe(from), describe(to))
	if !*verify && !*afterCutover {
		if err := migrate.RefuseParked(ctx, src, describe(from)); err != nil {
			return redact.Error(err, secrets...)
		}
		stores := map[string]endpoint{describe(from): src, describe(to): dst}
		if err := preflight(ctx, stderr, *maxSkew, stores, describe(from), describe(to)); err != nil {
			return redact.Error(err, secrets...)
		}
	}

	switch {
	case *verify:
		rep, err := migrate.Verify(ctx, src, dst, stderr)
		// The runbooks gate on the table's last line: a side not read to
		// the end prints no table, only the error.
		if rep.Read() {
			rep.WriteTable(stdout)
		}
		return redact.Error(err, secrets...)
	case *afterCutover:
		rep, err := migrate.VerifyAfterCutover(ctx, src, dst, describe(from), describe(to))
		if rep != nil {
			rep.WriteTable(stdout)
		}
		return redact.Error(err, secrets...)
	case *mirror:
		if *confirm != describe(to) && !*dryRun {
			return fmt.Errorf("--mirror deletes what the source lacks from the target: confirm with --confirm-target=%q (or look first with --dry-run)", describe(to))
		}
		rep, err := migrate.Mirror(ctx, src, dst, migrate.Options{
			DryRun: *dryRun, SkipInvalid: *skipInvalid, Source: describe(from), Target: describe(to), Progress: stderr,
		})
		if rep != nil {
			rep.WriteSummary(stdout)
		}
		return redact.Error(err, secrets...)
	}
	rep, err := migrate.Copy(ctx, src, dst, migrate.Options{
		DryRun: *dryRun, SkipInvalid: *skipInvalid, Overwrite: *overwrite, Source: describe(from), Target: describe(to), Progress: stderr,
	})
	if rep != nil {
		rep.WriteSummary(stdout, *dryRun)
	}
	return redact.Error(err, secrets...)
}

func open(ctx context.Context, s side, source bool, log *slog.Logger) (endpoint, error) {
	switch s.kind {
	case "dynamodb":
		if s.table == "" {
			return nil, errors.New("DYNAMODB_TABLE (or --from-table/--to-table) is required for dynamodb")
		}
		opts := []dynamodb.Option{dynamodb.WithLogger(log)}
		if source {
			opts = append(opts, dynamodb.WithoutTableCheck()) // the source needs only dynamodb:Scan
		}
		return dynamodb.Open(ctx, dynamodb.Config{Table: s.table, AWS: defaultchain.Load}, opts...)
	case "mongodb":
		return mongodb.Open(ctx, mongodb.Config{URL: s.mongoURL, Database: s.database, AllowFerretDB: s.allowFerretDB}, mongodb.WithLogger(log))
	case "bolt":
		if s.path == "" {
			return nil, errors.New("BOLT_PATH (or --from-path/--to-path) is required for bolt")
		}
		return bolt.Open(s.path)
	case "archive":
		if !source {
			return nil, errors.New("an archive is a source only: restore one with botctl backup restore")
		}
		return backup.Open(s.path, "") // checked whole before anything reads it
	case "":
		return nil, errors.New("--from and --to are required (dynamodb, mongodb or bolt)")
	}
	return nil, fmt.Errorf("unknown backend %q (want dynamodb, mongodb or bolt)", s.kind)
}

func describe(s side) string {
	switch s.kind {
	case "dynamodb":
		return "dynamodb table " + s.table
	case "bolt":
		return "bolt file " + s.path
	case "archive":
		return "archive " + s.path
	}
	return "mongodb database " + s.database
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
