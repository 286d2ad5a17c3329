// Command ferretdb runs FerretDB with its embedded SQLite handler on a loopback
// address, as the MongoDB-wire server for tests. It lives in its own module so
// that FerretDB's dependency tree never enters the bot's go.mod.
//
// Installing FerretDB's own command with go install panics on its version
// check; embedding the library, as here, does not.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("ferretdb", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0 picks a free one)")
	stateDir := fs.String("state", "", "directory for the SQLite files (required; must be on disk, memory mode hangs)")
	uriFile := fs.String("uri-file", "", "write the MongoDB URI here once listening")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *stateDir == "" {
		return fmt.Errorf("-state is required")
	}
	dir, err := filepath.Abs(*stateDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
	})
	if err != nil {
		return err
	}

	if *uriFile != "" {
		// Written atomically so a watcher never reads half a URI.
		tmp := *uriFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(f.MongoDBURI()+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, *uriFile); err != nil {
			return err
		}
	}
	fmt.Fprintln(stderr, "ferretdb listening:", f.MongoDBURI())
	f.Run(ctx)
	return nil
}
