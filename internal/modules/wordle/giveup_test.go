package wordle

import (
	"errors"
	"strconv"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// Simulation seed 12: a give-up press whose game record write failed was
// answered with an apology and not run again, and the game was never
// counted. The press now stays unfinished until its count lands: its
// update runs again, the game is counted once, and the press is answered
// once, whether the count's write was lost or landed unheard.
func TestAGiveUpPressWhoseCountFailsIsCountedOnceAndAnsweredOnce(t *testing.T) {
	for _, land := range []bool{false, true} {
		t.Run("landed="+strconv.FormatBool(land), func(t *testing.T) {
			const chat, bob = apptest.Group, 11
			b, store, confirm, answers := giveUpPrompt(t, chat, bob)
			store.Arm(Name, "stats:", land)
			if err := b.Handle(confirm); !errors.Is(err, app.ErrUnfinished) {
				t.Fatalf("the press whose count failed: %v; want it unfinished, to run again", err)
			}
			// No new-game button yet: a new game must not replace this one
			// before its count lands.
			if b.Buttons(chat) != "[Yes, give up] [No, keep playing]" {
				t.Fatalf("before its count landed the board offers %s", b.Buttons(chat))
			}
			for range 2 {
				if err := b.Handle(confirm); err != nil {
					t.Fatalf("a redelivery: %v", err)
				}
			}
			if edits := b.Srv.Edits(); edits[len(edits)-1].Text != "The word was CRANE." || b.Buttons(chat) != "[🔄 New game]" {
				t.Fatalf("the give-up ran again, but the board says %q with %s", edits[len(edits)-1].Text, b.Buttons(chat))
			}
			if toasts := b.Toasts()[answers:]; len(toasts) != 1 || toasts[0] != "" {
				t.Fatalf("the press was answered %q; want once, silently", toasts)
			}
			b.Expect(chat, bob, "/wordle_stats", "Played 1, won 0 (0%)\nStreak 0, best 0\n1: 0\n2: 0\n3: 0\n4: 0\n5: 0\n6: 0")
		})
	}
}

// A confirmed give-up whose game write fails, landed or not, leaves the
// press unfinished: run again, it finds the game over (or ends it) and
// counts it once, answered once (simulation seed 69, step 301: the write
// landed unheard, the press was apologised for and the game never counted).
func TestAGiveUpPressWhoseGameWriteFailsRunsAgainAndCountsOnce(t *testing.T) {
	for _, land := range []bool{false, true} {
		t.Run("landed="+strconv.FormatBool(land), func(t *testing.T) {
			const chat, bob = apptest.Group, 11
			b, store, confirm, answers := giveUpPrompt(t, chat, bob)
			store.Arm(Name, "game:", land)
			if err := b.Handle(confirm); !errors.Is(err, app.ErrUnfinished) {
				t.Fatalf("the press whose game write failed: %v; want it unfinished, to run again", err)
			}
			for range 2 {
				if err := b.Handle(confirm); err != nil {
					t.Fatalf("a redelivery: %v", err)
				}
			}
			if edits := b.Srv.Edits(); edits[len(edits)-1].Text != "The word was CRANE." || b.Buttons(chat) != "[🔄 New game]" {
				t.Fatalf("after the run again the board says %q with %s", edits[len(edits)-1].Text, b.Buttons(chat))
			}
			if toasts := b.Toasts()[answers:]; len(toasts) != 1 {
				t.Fatalf("the press was answered %q; want once", toasts)
			}
			b.Expect(chat, bob, "/wordle_stats", "Played 1, won 0 (0%)\nStreak 0, best 0\n1: 0\n2: 0\n3: 0\n4: 0\n5: 0\n6: 0")
		})
	}
}

// giveUpPrompt is bob's wordle in chat at its give-up prompt, on a store
// whose chosen write can fail: the confirmation's press, and how many
// presses were answered before it.
func giveUpPrompt(t *testing.T, chat, bob int64) (*apptest.Bot, *storagetest.Unheard, *models.Update, int) {
	t.Helper()
	store := storagetest.NewUnheard(memory.New())
	b := apptest.NewOnStore(t, store, telegramtest.New(t), nil, []app.Factory{fixed("crane", "robot")})
	b.MustSay(chat, bob, "/wordle trace")
	if _, err := b.Press(chat, bob, "🏳 Give up"); err != nil {
		t.Fatal(err)
	}
	msg, rows, _ := b.Srv.Keyboard(chat)
	return b, store, telegramtest.Press(chat, bob, msg, rows[0][0].CallbackData), len(b.Toasts())
}
