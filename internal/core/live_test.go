package core_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// tallyBoard is the state a live message shows: a vote count, its
// version and the message showing it.
type tallyBoard struct {
	app.Once[int]
	Votes   int   `json:"votes"`
	Version int64 `json:"version"`
	Chat    int64 `json:"chat"`
	Message int   `json:"message"`
}

func votesText(n int) string { return "votes: " + strconv.Itoa(n) }

// gate holds the edit that would show votes: 1 until released, so a newer
// edit can reach Telegram first.
type gate struct {
	app.Messenger
	held, release chan struct{}
}

func (g gate) Edit(ctx context.Context, e app.Edit) error {
	if e.Text == votesText(1) && g.held != nil {
		close(g.held)
		<-g.release
	}
	return g.Messenger.Edit(ctx, e)
}

// poll is a module with one live message: /poll posts it, each press of
// its button counts a vote once and shows the count.
func poll(g *gate) app.Factory {
	return app.Factory{Name: "poll", New: func(d app.Deps) (*app.Module, error) {
		g.Messenger = d.Bot
		live := app.Live{Store: d.Store, Bot: g, Now: d.Now}
		latest := func(ctx context.Context) (app.LiveView, error) {
			var s tallyBoard
			if err := d.Store.GetJSON(ctx, "board", &s); err != nil {
				return app.LiveView{}, err
			}
			return app.LiveView{Version: s.Version, Edit: app.Edit{ChatID: s.Chat, MessageID: s.Message, Text: votesText(s.Votes)}}, nil
		}
		return &app.Module{
			Name: "poll",
			Commands: []app.Command{{Name: "poll", Description: "A poll", Handler: func(ctx context.Context, r *app.Request) error {
				msg, err := r.ReplyKeyboard(ctx, votesText(0), app.MustKeyboard([]app.Button{{Text: "+1", Data: app.Data("vote:", "up")}}))
				if err != nil {
					return err
				}
				return d.Store.PutJSON(ctx, "board", tallyBoard{Chat: msg.Chat.ID, Message: msg.ID})
			}}},
			Callbacks: []app.Callback{{Prefix: "vote:", Handler: func(ctx context.Context, r *app.CallbackRequest) error {
				_, err := app.ApplyOnce(ctx, d.Store, "board", r.UpdateID(), func(s *tallyBoard, _ bool) (int, error) {
					s.Votes++
					s.Version++
					return s.Votes, nil
				})
				if err != nil {
					return err
				}
				if err := live.Show(ctx, "board", latest); err != nil {
					return app.Unfinished(err) // counted: run again, it shows
				}
				return nil
			}}},
		}, nil
	}}
}

func pollMessage(t *testing.T, b *apptest.Bot) int {
	t.Helper()
	b.MustSay(group, owner, "/poll")
	id, _, ok := b.Srv.Keyboard(group)
	if !ok {
		t.Fatal("no poll message")
	}
	return id
}

// versionsShown are the vote counts the poll's edits showed, in the order
// Telegram got them.
func versionsShown(t *testing.T, b *apptest.Bot) []string {
	var out []string
	for _, e := range b.Srv.Edits() {
		out = append(out, e.Text)
	}
	return out
}

func TestAnOlderStateNeverOverwritesANewerOneOnALiveMessage(t *testing.T) {
	g := &gate{held: make(chan struct{}), release: make(chan struct{})}
	b := apptest.New(t, []app.Factory{poll(g)})
	id := pollMessage(t, b)

	first := make(chan error, 1)
	go func() { first <- b.Handle(telegramtest.Press(group, owner, id, "vote:up")) }()
	<-g.held // the edit to votes: 1 is on its way, and slow
	if err := b.Handle(telegramtest.Press(group, user, id, "vote:up")); err != nil {
		t.Fatal(err)
	}
	close(g.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Srv.Shows(group, id); got != votesText(2) {
		t.Fatalf("the poll shows %q after edits %q; want %q", got, versionsShown(t, b), votesText(2))
	}
	assertNeverBack(t, versionsShown(t, b))
}

func TestConcurrentChangesLeaveALiveMessageShowingTheLatest(t *testing.T) {
	b := apptest.New(t, []app.Factory{poll(&gate{})})
	id := pollMessage(t, b)
	const presses = 16
	var wg sync.WaitGroup
	errs := make(chan error, presses)
	for i := range presses {
		wg.Go(func() { errs <- b.Handle(telegramtest.Press(group, int64(100+i), id, "vote:up")) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := b.Srv.Shows(group, id); got != votesText(presses) {
		t.Fatalf("the poll shows %q after edits %q; want %q", got, versionsShown(t, b), votesText(presses))
	}
	assertNeverBack(t, versionsShown(t, b))
	var s tallyBoard
	if err := b.Store.For("poll").GetJSON(context.Background(), "board", &s); err != nil || s.Votes != presses {
		t.Fatalf("the state: %+v, %v", s, err)
	}
}

// assertNeverBack fails when an edit showed fewer votes than one before
// it: an older state overwrote a newer one.
func assertNeverBack(t *testing.T, edits []string) {
	t.Helper()
	last := -1
	for _, e := range edits {
		var n int
		if _, err := fmt.Sscanf(e, "votes: %d", &n); err != nil {
			t.Fatalf("edit %q", e)
		}
		if n < last {
			t.Fatalf("edits %q: an older state was sent after a newer one", edits)
		}
		last = n
	}
}
