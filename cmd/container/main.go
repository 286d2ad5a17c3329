// Command container runs miti99bot as a long-lived process: long polling,
// the in-process cron and the HTTP surface (health, cron route). With
// -console it runs the whole bot in a terminal instead, with no token and no
// network.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "miti99bot:", err)
		os.Exit(1)
	}
}
