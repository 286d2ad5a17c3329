package games_test

import (
	"context"
	"errors"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/games"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// game is a module that keeps what a game module keeps by chat, and
// declares it as games.ChatState.
var game = app.Factory{Name: "wordle", New: func(app.Deps) (*app.Module, error) {
	return &app.Module{Name: "wordle", ChatState: games.ChatState}, nil
}}

func TestAChatsGameAndRecordFollowItsChange(t *testing.T) {
	const old, moved = -4518810793, -1002471352452
	tests := []struct {
		name     string
		change   app.ChatChange
		atNew    string // a game the supergroup began already, if any
		wantGame string // the game at the new id after the change; "" none
	}{
		{"upgraded: moved to the supergroup", app.ChatChange{ChatID: old, MovedTo: moved}, "", "old game"},
		{"upgraded, the supergroup already playing: its game stays", app.ChatChange{ChatID: old, MovedTo: moved}, "new game", "new game"},
		{"gone: forgotten", app.ChatChange{ChatID: old}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			b := apptest.New(t, []app.Factory{game})
			s := b.Store.For("wordle")
			must(t, s.Put(ctx, games.GameKey(old), []byte("old game")))
			must(t, s.Put(ctx, games.Key(old), []byte("old record")))
			if tt.atNew != "" {
				must(t, s.Put(ctx, games.GameKey(moved), []byte(tt.atNew)))
			}
			for range 2 { // both runtimes, or a redelivery: the same end
				must(t, b.App.ChatChanged(ctx, tt.change))
			}
			for _, k := range []string{games.GameKey(old), games.Key(old)} {
				if _, err := s.Get(ctx, k); !errors.Is(err, storage.ErrNotFound) {
					t.Fatalf("%s left behind (%v)", k, err)
				}
			}
			got, err := s.Get(ctx, games.GameKey(moved))
			if tt.wantGame == "" {
				if !errors.Is(err, storage.ErrNotFound) {
					t.Fatalf("a game at the new id: %q", got)
				}
				return
			}
			if string(got) != tt.wantGame {
				t.Fatalf("game at the new id = %q (%v), want %q", got, err, tt.wantGame)
			}
			if rec, _ := s.Get(ctx, games.Key(moved)); string(rec) != "old record" {
				t.Fatalf("record at the new id = %q", rec)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
