// Command lambda runs miti99bot on AWS Lambda (provided.al2023, built with
// -tags lambda.norpc): the Telegram webhook through a Function URL, and cron
// jobs fired by EventBridge Scheduler.
package main

import (
	"context"
	"fmt"
	"os"
)

// main does not use cmdmain: catching SIGTERM there would keep the process
// alive past the shutdown signal Lambda sends.
func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "miti99bot:", err)
		os.Exit(1)
	}
}
