package core_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

func TestDeployNoticeIsSentOncePerBuild(t *testing.T) {
	h := newHarness(t)
	// A second instance over the same store: the other runtime in a cutover.
	other, err := core.New(h.store, mustClient(t, h.srv), core.WithModules(builtin.Catalogue()), core.WithOwner(owner))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if !h.app.NotifyDeploy(ctx, "abc123") {
		t.Fatal("the first instance should announce the build")
	}
	if other.NotifyDeploy(ctx, "abc123") || h.app.NotifyDeploy(ctx, "abc123") {
		t.Fatal("a build was announced twice")
	}
	if !other.NotifyDeploy(ctx, "def456") {
		t.Fatal("a new build should be announced")
	}
	msgs := h.srv.Messages()
	if len(msgs) != 2 || msgs[0].ChatID != owner || !strings.Contains(msgs[0].Text, "abc123") || !strings.Contains(msgs[1].Text, "def456") {
		t.Fatalf("owner got %+v", msgs)
	}
	if len(h.srv.Commands()) == 0 {
		t.Fatal("a deploy should publish the command menu")
	}
}

func TestDeployNoticeNeedsAShaAndAnOwner(t *testing.T) {
	h := newHarness(t, core.WithOwner(0))
	if h.app.NotifyDeploy(t.Context(), "abc") || newHarness(t).app.NotifyDeploy(t.Context(), "") {
		t.Fatal("announced without an owner or a SHA")
	}
}

func TestDeployNoticeFailuresAreOnlyLogged(t *testing.T) {
	h := newHarness(t)
	h.srv.FailNext("sendMessage", telegramtest.Failure{Code: 500, Description: "Internal Server Error"})
	h.srv.FailNext("setMyCommands", telegramtest.Failure{Code: 400, Description: "Bad Request: oops"})
	h.app.NotifyDeploy(t.Context(), "abc")
	if !strings.Contains(h.logs.String(), "owner not notified") {
		t.Fatalf("the failure was not logged:\n%s", h.logs.String())
	}

	h = newHarness(t)
	h.store.SetDown(true)
	if h.app.NotifyDeploy(t.Context(), "abc") {
		t.Fatal("announced without a claim")
	}
	if len(h.srv.Messages()) != 0 {
		t.Fatal("sent without a claim")
	}
}

func TestDeployNoticeGivesUpWithinItsBudget(t *testing.T) {
	h := newHarness(t)
	// The server would answer after 20 s; the 3 s budget must give up
	// first, which the server sees as an abandoned call.
	h.srv.FailNext("setMyCommands", telegramtest.Failure{Delay: 20 * time.Second})
	h.app.NotifyDeploy(context.Background(), "slow")
	if err := h.srv.WaitAbandoned(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.logs.String(), "command menu not updated") {
		t.Fatalf("the give-up was not logged:\n%s", h.logs.String())
	}
}

func mustClient(t *testing.T, srv *telegramtest.Server) *telegram.Client {
	c, err := telegram.New(srv.Token, telegram.WithAPIURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnOffDeployNoticeSaysWhyOnce(t *testing.T) {
	tests := []struct {
		name  string
		owner int64
		sha   string
		why   string
	}{
		{"no commit in the build", owner, "", "deploy notice off: the build carries no commit"},
		{"no owner to tell", 0, "abc123", "deploy notice off: OWNER_ID is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, core.WithOwner(tt.owner))
			if h.app.NotifyDeploy(t.Context(), tt.sha) {
				t.Fatal("the notice was sent")
			}
			if n := strings.Count(h.logs.String(), tt.why); n != 1 {
				t.Fatalf("%q logged %d times, want once: %s", tt.why, n, h.logs)
			}
			if len(h.srv.Messages()) != 0 {
				t.Fatalf("messages: %+v", h.srv.Messages())
			}
		})
	}
}

// What earlier builds wrote per update and this one never reads (attempt
// tokens, late records by update id) is swept by the next build's deploy:
// nothing written per update stays for good. The ring of late slots stays.
func TestANewBuildSweepsLegacyUpdateRecords(t *testing.T) {
	h := newHarness(t)
	cs := h.store.For(storage.CoreNamespace)
	legacy := []string{"try:9001:2", "try:9001:3", "update:late:123456"}
	kept := []string{"update:late:17", "update:5", "deploy:old"}
	for _, k := range append(slices.Clone(legacy), kept...) {
		if err := cs.Put(t.Context(), k, []byte(`{"id":1,"state":"done"}`)); err != nil {
			t.Fatal(err)
		}
	}
	h.app.NotifyDeploy(t.Context(), "abc123")
	for _, k := range legacy {
		if _, err := cs.Get(t.Context(), k); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: %v, want it swept", k, err)
		}
	}
	for _, k := range kept {
		if _, err := cs.Get(t.Context(), k); err != nil {
			t.Errorf("%s: %v, want it kept", k, err)
		}
	}
}
