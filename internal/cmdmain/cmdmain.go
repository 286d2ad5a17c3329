// Package cmdmain is the main function every miti99bot command shares: run
// with the process's arguments, environment and output, print the error
// under the command's name and exit 1 on failure.
package cmdmain

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Run is a command's body: it sees the process only through its arguments,
// so tests call it directly.
type Run func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error

// Main runs run until it returns; SIGINT or SIGTERM cancel its context.
func Main(name string, run Run) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}
