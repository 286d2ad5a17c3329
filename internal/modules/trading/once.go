package trading

import (
	"context"
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Apply changes the user's portfolio with f at most once per Telegram
// update (app.ApplyOnce), then replies what f said. When the reply fails
// after the change landed, the update fails and Telegram delivers it
// again: the redelivery sends the reply the change earned and changes
// nothing (a top-up is never counted twice, a sell never refused for the
// holding it sold). The same write records the group the change was made
// in and the user's name, for the group's board (Board). A refusal (f's
// error) changes nothing and is answered; any other error is returned, so
// the update is retried.
func Apply(ctx context.Context, s storage.KVStore, r *app.Request, f func(p *Portfolio) (reply string, err error)) error {
	reply, err := app.ApplyOnce(ctx, s, Key(r.UserID), r.UpdateID(), func(p *Portfolio, _ bool) (string, error) {
		reply, err := f(p)
		if err == nil {
			p.noteMember(r)
		}
		return reply, err
	})
	if errors.Is(err, storage.ErrBusy) {
		err = ErrBusy
	}
	for e := range reasons { // a user's mistake: answered, never retried
		if errors.Is(err, e) {
			return Refuse(ctx, r, err, "")
		}
	}
	if err != nil {
		return err // the store's failure: the update is retried
	}
	_, err = r.Reply(ctx, reply)
	return err
}
