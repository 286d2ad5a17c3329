package trading

import (
	"context"
	"errors"
	"slices"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// applied is a change a Telegram update made, with the reply it earned.
type applied struct {
	Update int64  `json:"update"`
	Reply  string `json:"reply"`
}

// keepApplied bounds how many updates a portfolio remembers: Telegram
// redelivers an update within minutes, and a user sends few in that time.
const keepApplied = 8

// errApplied: the update changed the portfolio already; write nothing.
var errApplied = errors.New("trading: this update was applied already")

// Apply changes the user's portfolio with f at most once per Telegram
// update, then replies what f said. When the reply fails after the change
// landed, the update fails and Telegram delivers it again: the portfolio
// remembers the update and its reply, so the redelivery sends that reply
// and changes nothing (a top-up is never counted twice, a sell never
// refused for the holding it sold). A refusal (f's error) changes nothing
// and is answered; any other error is returned, so the update is retried.
func Apply(ctx context.Context, s storage.KVStore, r *app.Request, f func(p *Portfolio) (reply string, err error)) error {
	var id int64
	if r.Update != nil {
		id = r.Update.ID
	}
	var reply string
	_, err := Update(ctx, s, r.UserID, func(p *Portfolio) error {
		if i := slices.IndexFunc(p.Applied, func(a applied) bool { return id != 0 && a.Update == id }); i >= 0 {
			reply = p.Applied[i].Reply
			return errApplied
		}
		out, err := f(p)
		if err != nil {
			return err
		}
		reply = out
		if id != 0 {
			p.Applied = append(p.Applied, applied{Update: id, Reply: out})
			p.Applied = p.Applied[max(0, len(p.Applied)-keepApplied):]
		}
		return nil
	})
	if err != nil && !errors.Is(err, errApplied) {
		return Answer(ctx, r, err)
	}
	return r.Reply(ctx, reply)
}
