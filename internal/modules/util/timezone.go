package util

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

// timezone is /timezone: with a zone ("/timezone Asia/Tokyo", "UTC+9")
// it makes it the clock the chat's times are shown on, without one it
// says which clock that is. Who may choose is /language's rule.
func timezone(ctx context.Context, d app.Deps, r *app.Request) error {
	now := d.Now()
	if r.Args == "" {
		_, err := r.Reply(ctx, r.T("timezone_now", app.Args{"Zone": locale.ZoneLabel(r.Zone(), now), "Now": locale.DateTime(r.Lang, r.Local(now))}))
		return err
	}
	name, ok := locale.ParseZone(r.Args)
	if !ok {
		_, err := r.Reply(ctx, r.T("timezone_unknown"))
		return err
	}
	may, err := mayChoose(ctx, d, r.ChatID, r.UserID)
	if err != nil {
		return err
	}
	if !may {
		_, err := r.Reply(ctx, r.T("timezone_admins_only"))
		return err
	}
	if err := d.Texts.ChooseZone(ctx, r.ChatID, name); err != nil {
		return err
	}
	w := r.InZone(locale.LoadZone(name))
	_, err = r.Reply(ctx, w.T("timezone_set", app.Args{"Zone": locale.ZoneLabel(w.Zone(), now), "Now": locale.DateTime(w.Lang, w.Local(now))}))
	return err
}
