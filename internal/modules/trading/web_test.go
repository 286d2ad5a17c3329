package trading_test

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

func TestBoardRouteShowsAGroupsBoardOnlyToWhoTradedThere(t *testing.T) {
	route := trading.BoardRoute(func(_ context.Context, chat, user int64) (trading.WebBoard, bool, error) {
		return trading.WebBoard{Chat: chat, Rows: []trading.WebBoardRow{{Rank: 1, Name: "A"}}}, chat == -100 && user == 7, nil
	})
	for _, tc := range []struct {
		name string
		chat string
		user int64
		want error
	}{
		{"a member who traded there", "-100", 7, nil},
		{"someone who never traded there", "-100", 8, app.ErrWebForbidden},
		{"a private chat's id is no group", "7", 7, app.ErrWebNotFound},
		{"not a number", "-100x", 7, app.ErrWebNotFound},
		{"no chat", "", 7, app.ErrWebNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := route.Handler(t.Context(), &app.WebRequest{UserID: tc.user, Query: url.Values{"chat": {tc.chat}}})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if err == nil && got.(trading.WebBoard).Chat != -100 {
				t.Errorf("board %+v", got)
			}
		})
	}
	if route.Name != "board" {
		t.Errorf("route %q", route.Name)
	}
}
