// Command hellolambda is the smallest aws-lambda-go function: the baseline
// scripts/bench-coldstart compares the bot's bootstrap with.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, map[string]any) (string, error) { return "hello", nil })
}
