package core_test

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// keeper keeps a game per chat and subscriptions per chat and topic, and
// declares them as its per-chat state: it writes no move of its own.
func keeper() app.Factory {
	return app.Factory{Name: "keeper", New: func(app.Deps) (*app.Module, error) {
		return &app.Module{Name: "keeper", ChatState: []string{"game:{chat}", "sub:{chat}:*"}}, nil
	}}
}

func TestTheEngineMovesAModulesDeclaredChatStateWhenAGroupIsUpgraded(t *testing.T) {
	const old, moved = "-4518810793", "-1002471352452"
	before := map[string]string{
		"game:" + old:         "old game",
		"sub:" + old + ":0":   "old sub",
		"sub:" + old + ":7":   "old topic sub",
		"sub:" + moved + ":7": "the supergroup's own", // kept: the newer
		"sub:" + old + "1:0":  "another chat's",       // a chat whose id begins alike
		"game:42":             "another chat's game",
	}
	tests := []struct {
		name   string
		change app.ChatChange
		want   map[string]string
	}{
		{"upgraded: moved, what the new id holds kept", app.ChatChange{ChatID: -4518810793, MovedTo: -1002471352452}, map[string]string{
			"game:" + moved:       "old game",
			"sub:" + moved + ":0": "old sub",
			"sub:" + moved + ":7": "the supergroup's own",
			"sub:" + old + "1:0":  "another chat's",
			"game:42":             "another chat's game",
		}},
		{"gone: forgotten", app.ChatChange{ChatID: -4518810793}, map[string]string{
			"sub:" + moved + ":7": "the supergroup's own",
			"sub:" + old + "1:0":  "another chat's",
			"game:42":             "another chat's game",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := apptest.New(t, []app.Factory{keeper()})
			s, ctx := b.Store.For("keeper"), context.Background()
			for k, v := range before {
				if err := s.Put(ctx, k, []byte(v)); err != nil {
					t.Fatal(err)
				}
			}
			for range 2 { // both runtimes, or told again: the same end
				if err := b.App.ChatChanged(ctx, tt.change); err != nil {
					t.Fatal(err)
				}
			}
			got := map[string]string{}
			for k := range before {
				for _, key := range []string{k, "game:" + moved, "sub:" + moved + ":0"} {
					v, err := s.Get(ctx, key)
					if errors.Is(err, storage.ErrNotFound) {
						continue
					} else if err != nil {
						t.Fatal(err)
					}
					got[key] = string(v)
				}
			}
			if !maps.Equal(got, tt.want) {
				t.Fatalf("the store holds %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestTheRegistryRefusesAChatStateItCannotRead(t *testing.T) {
	for _, tmpl := range []string{"game", "game:{chat}:{chat}", "sub:{chat}*", "sub:{chat}1*", "sub:*:{chat}", "a:{chat}:*:b"} {
		f := app.Factory{Name: "keeper", New: func(app.Deps) (*app.Module, error) {
			return &app.Module{Name: "keeper", ChatState: []string{tmpl}}, nil
		}}
		if _, err := core.New(memory.New(), nil, core.WithModules([]app.Factory{f})); err == nil {
			t.Errorf("chat state %q registered", tmpl)
		}
	}
}
