// Package misc holds small commands: /ping, which answers and records when
// it was last called, /mstats, which shows that record, and the owner's
// /cron_status, the cron jobs' records as the running bot reads them.
package misc

import (
	"context"
	"embed"
	"errors"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Name is the module's name in MODULES.
const Name = "misc"

// texts are the module's words (see app.Words).
//
//go:embed locales/*.toml
var texts embed.FS

// Factory registers the module.
var Factory = app.Factory{Name: Name, New: New}

// New builds the module.
func New(d app.Deps) (*app.Module, error) {
	return &app.Module{
		Name:  Name,
		Texts: texts,
		Commands: []app.Command{
			{Name: "ping", Description: "Check that the bot is alive", Handler: func(ctx context.Context, r *app.Request) error {
				rec := lastPing{At: d.Now().UTC(), ChatID: r.ChatID, UserID: r.UserID}
				// Record first: if the store is down the update is retried
				// rather than answered with a pong that left no trace.
				if err := d.Store.PutJSON(ctx, lastPingKey, rec); err != nil {
					return err
				}
				_, err := r.Reply(ctx, r.T("pong"))
				return err
			}},
			{Name: "mstats", Description: "Show when /ping was last used", Visibility: app.Protected, Handler: func(ctx context.Context, r *app.Request) error {
				var rec lastPing
				err := d.Store.GetJSON(ctx, lastPingKey, &rec)
				switch {
				case errors.Is(err, storage.ErrNotFound):
					_, err := r.Reply(ctx, r.T("no_ping"))
					return err
				case err != nil:
					return err
				}
				_, err = r.Reply(ctx, r.T("last_ping", app.Args{"At": locale.DateTime(r.Lang, r.Local(rec.At)), "Zone": r.ZoneName(), "User": strconv.FormatInt(rec.UserID, 10), "Chat": strconv.FormatInt(rec.ChatID, 10)}))
				return err
			}},
			// The bot reads its own store, which botctl cannot open while
			// the bot holds the embedded file, and the image has no botctl.
			{Name: "cron_status", Description: "Show each cron job's last runs and next fire, and the store they are read from", Visibility: app.Private, Handler: func(ctx context.Context, r *app.Request) error {
				if d.CronStatus == nil {
					_, err := r.Reply(ctx, r.T("no_cron_status"))
					return err
				}
				text, err := d.CronStatus(ctx)
				if err != nil {
					return err
				}
				_, err = r.Reply(ctx, text)
				return err
			}},
		},
	}, nil
}
