package dynamodb

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var _ storage.ServerClock = (*Provider)(nil)

// ServerTime reads DynamoDB's clock from the Date header of a one-item
// Scan (the one call both of the migrator's roles may make): whole seconds.
func (p *Provider) ServerTime(ctx context.Context) (time.Time, time.Duration, error) {
	var date string
	_, err := p.client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(p.table), Limit: aws.Int32(1), Select: types.SelectCount},
		func(o *dynamodb.Options) { o.HTTPClient = dateOf{o.HTTPClient, &date} })
	if err != nil {
		return time.Time{}, 0, err
	}
	if date == "" {
		return time.Time{}, 0, errors.New("the response has no Date header")
	}
	at, err := http.ParseTime(date)
	return at, time.Second, err
}

// dateOf keeps the Date header of the last response.
type dateOf struct {
	dynamodb.HTTPClient
	date *string
}

func (d dateOf) Do(r *http.Request) (*http.Response, error) {
	resp, err := d.HTTPClient.Do(r)
	if resp != nil {
		*d.date = resp.Header.Get("Date")
	}
	return resp, err
}
