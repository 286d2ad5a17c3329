package main

import (
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/awsenv/shared"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
)

// tableCreate makes a DynamoDB table; production tables come from
// template.yaml, so this is for dynalite.
func tableCreate(ctx context.Context, e env) error {
	if len(e.args) != 1 {
		return errUsage
	}
	client, err := dynamodb.NewClient(ctx, shared.Load)
	if err != nil {
		return err
	}
	if err := dynamodb.CreateTable(ctx, client, e.args[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s ready\n", e.args[0])
	return nil
}
