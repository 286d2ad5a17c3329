// Package cmdmain is the main function every miti99bot command shares: run
// with the process's arguments, environment and output, print the error
// under the command's name and exit 1 on failure.
package cmdmain

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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
	if code := Report(os.Stderr, name, err); code != 0 {
		os.Exit(code)
	}
}

// Report prints err to stderr under the command's name and returns the
// exit code: 0 for nil and for flag.ErrHelp (the usage is printed and was
// asked for), else 1.
func Report(stderr io.Writer, name string, err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	// A package named like the command already prefixes its errors
	// ("migrate: ..."): say the name once.
	msg := err.Error()
	if !strings.HasPrefix(msg, name+":") {
		msg = name + ": " + msg
	}
	fmt.Fprintln(stderr, msg)
	return 1
}

// WantsHelp tells whether args ask for help (-h, -help or --help) before
// any "--": a command checks it before touching anything, so that no
// argument position reads "--help" as a name or a URL.
func WantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}
