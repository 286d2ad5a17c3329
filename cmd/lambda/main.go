// Command lambda runs miti99bot on AWS Lambda (provided.al2023, built with
// -tags lambda.norpc): the Telegram webhook through a Function URL, and cron
// jobs fired by EventBridge Scheduler.
package main

import (
	"context"
	"fmt"
	"os"
)

// main does not use cmdmain: Lambda signals the environment itself, and a
// caught SIGTERM must not outlive lambda.Start.
func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "miti99bot:", err)
		os.Exit(1)
	}
}
