package main

import (
	"context"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/awsenv/defaultchain"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
)

// tableCreate makes a DynamoDB table; production tables come from
// template.yaml, so this is for dynalite.
func tableCreate(ctx context.Context, e env) error {
	args, err := e.positional(e.flags(), 1)
	if err != nil {
		return err
	}
	client, err := dynamodb.NewClient(ctx, defaultchain.Load)
	if err != nil {
		return err
	}
	if err := dynamodb.CreateTable(ctx, client, args[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "table %s ready\n", args[0])
	return nil
}
