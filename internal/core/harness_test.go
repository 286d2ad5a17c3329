package core_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/misc"
	"github.com/miti99bot/miti99bot/internal/modules/util"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

const (
	owner   = apptest.Owner
	admin   = apptest.Admin
	user    = apptest.User
	private = apptest.PrivateChat
	group   = apptest.Group
)

// errFlaky is what /fail returns while its harness says so.
var errFlaky = errors.New("flaky dependency")

// testModule is a module built for the core's tests.
func testModule(failing *atomic.Bool) app.Factory {
	return app.Factory{Name: "testmod", New: func(d app.Deps) (*app.Module, error) {
		return &app.Module{
			Name: "testmod",
			Commands: []app.Command{
				{Name: "echo", Description: "Echo the arguments", Handler: func(ctx context.Context, r *app.Request) error {
					_, err := r.Reply(ctx, "args="+r.Args)
					return err
				}},
				{Name: "boom", Description: "Panic", Handler: func(context.Context, *app.Request) error {
					panic("kaboom")
				}},
				{Name: "fail", Description: "Fail while the harness says so", Handler: func(ctx context.Context, r *app.Request) error {
					if failing.Load() {
						return errFlaky
					}
					_, err := r.Reply(ctx, "ok")
					return err
				}},
				{Name: "secret", Description: "Owner only", Visibility: app.Private, Handler: func(ctx context.Context, r *app.Request) error {
					_, err := r.Reply(ctx, "secret")
					return err
				}},
			},
			Callbacks: []app.Callback{{Prefix: "tm:", Handler: func(ctx context.Context, r *app.CallbackRequest) error {
				_, err := r.Reply(ctx, "pressed "+r.Data)
				return err
			}}},
		}, nil
	}}
}

// harness is apptest's bot with the core's test module.
type harness struct {
	*apptest.Bot
	t       *testing.T
	srv     *telegramtest.Server
	store   *storagetest.Switch
	app     *core.App
	logs    *apptest.Logs
	failing *atomic.Bool // makes testmod's /fail return errFlaky
}

func newHarness(t *testing.T, opts ...core.Option) *harness {
	t.Helper()
	failing := &atomic.Bool{}
	b := apptest.New(t, []app.Factory{util.Factory, misc.Factory, testModule(failing)}, opts...)
	return &harness{Bot: b, t: t, srv: b.Srv, store: b.Store, app: b.App, logs: b.Logs, failing: failing}
}

func (h *harness) handle(u *models.Update) error           { return h.Handle(u) }
func (h *harness) say(chat, from int64, text string) error { return h.Say(chat, from, text) }
func (h *harness) replies() []string                       { return h.Replies() }

// appWithoutUsername leaves the bot's username to be fetched with getMe.
func appWithoutUsername() core.Option { return core.WithBotUsername("") }

// withID gives an update a fixed id, for redelivery tests.
func withID(u *models.Update, id int64) *models.Update {
	u.ID = id
	return u
}
