package mongodb

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/miti99bot/miti99bot/internal/storage"
)

var _ storage.ServerClock = (*Provider)(nil)

// ServerTime reads the MongoDB server's clock from hello's localTime:
// milliseconds.
func (p *Provider) ServerTime(ctx context.Context) (time.Time, time.Duration, error) {
	var hello struct {
		LocalTime time.Time `bson:"localTime"`
	}
	if err := p.db.RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Decode(&hello); err != nil {
		return time.Time{}, 0, err
	}
	if hello.LocalTime.IsZero() {
		return time.Time{}, 0, errors.New("hello has no localTime")
	}
	return hello.LocalTime, time.Millisecond, nil
}
