package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
	"github.com/miti99bot/miti99bot/internal/storage/mongodb"
)

// preflight refuses a copy or mirror while a store server's clock and this
// machine's are more than max apart (0: no check). A bolt file has no clock
// of its own: it is on this machine.
func preflight(ctx context.Context, w io.Writer, max time.Duration, stores map[string]endpoint, order ...string) error {
	if max <= 0 {
		return nil
	}
	var clocks []migrate.ServerClock
	for _, name := range order {
		switch p := stores[name].(type) {
		case *dynamodb.Provider:
			clocks = append(clocks, migrate.ServerClock{Name: name, Read: dynamoClock(p)})
		case *mongodb.Provider:
			clocks = append(clocks, migrate.ServerClock{Name: name, Read: mongoClock(p)})
		}
	}
	skews, err := migrate.CheckClocks(ctx, time.Now, max, clocks)
	for _, s := range skews {
		fmt.Fprintln(w, "migrate:", s)
	}
	return err
}

// dynamoClock reads DynamoDB's clock from the Date header of a one-item
// Scan (the one call both of the migrator's roles may make): whole seconds.
func dynamoClock(p *dynamodb.Provider) func(context.Context) (time.Time, time.Duration, error) {
	return func(ctx context.Context) (time.Time, time.Duration, error) {
		var date string
		_, err := p.Client().Scan(ctx, &awsddb.ScanInput{TableName: aws.String(p.Table()), Limit: aws.Int32(1), Select: types.SelectCount},
			func(o *awsddb.Options) { o.HTTPClient = dateOf{o.HTTPClient, &date} })
		if err != nil {
			return time.Time{}, 0, err
		}
		if date == "" {
			return time.Time{}, 0, errors.New("the response has no Date header")
		}
		at, err := http.ParseTime(date)
		return at, time.Second, err
	}
}

// dateOf keeps the Date header of the last response.
type dateOf struct {
	awsddb.HTTPClient
	date *string
}

func (d dateOf) Do(r *http.Request) (*http.Response, error) {
	resp, err := d.HTTPClient.Do(r)
	if resp != nil {
		*d.date = resp.Header.Get("Date")
	}
	return resp, err
}

// mongoClock reads the MongoDB server's clock from hello's localTime:
// milliseconds.
func mongoClock(p *mongodb.Provider) func(context.Context) (time.Time, time.Duration, error) {
	return func(ctx context.Context) (time.Time, time.Duration, error) {
		var hello struct {
			LocalTime time.Time `bson:"localTime"`
		}
		if err := p.Database().RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&hello); err != nil {
			return time.Time{}, 0, err
		}
		if hello.LocalTime.IsZero() {
			return time.Time{}, 0, errors.New("hello has no localTime")
		}
		return hello.LocalTime, time.Millisecond, nil
	}
}
