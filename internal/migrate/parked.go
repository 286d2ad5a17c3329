package migrate

import (
	"context"
	"errors"
	"fmt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// ErrParked is the refusal to move a store whose inbox holds updates.
var ErrParked = errors.New("the source holds updates a polling container parked and has not handled")

// Parked counts the updates parked in src's inbox (storage.InboxPrefix):
// confirmed to Telegram, which will not send them again, and worked by no
// runtime but a container.
func Parked(ctx context.Context, src storage.KVProvider) (int, error) {
	keys, err := src.For(storage.CoreNamespace).List(ctx, storage.InboxPrefix)
	if err != nil {
		return 0, fmt.Errorf("reading the source's inbox: %w", err)
	}
	return len(keys), nil
}

// RefuseParked refuses a copy or mirror from src while its inbox holds
// updates, naming how many and how to work them off: copied, they would
// wait in the target for a poller that never comes (the Lambda).
func RefuseParked(ctx context.Context, src storage.KVProvider, source string) error {
	n, err := Parked(ctx, src)
	if err != nil || n == 0 {
		return err
	}
	return fmt.Errorf("%w: %s holds %d in its inbox. Work them off first: start the container once in webhook mode "+
		"(TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET set) and wait for its log line \"the parked updates are worked\", "+
		"then stop it and run this again", ErrParked, source, n)
}
