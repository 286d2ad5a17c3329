package telegram_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// A user is in a chat as its owner or an administrator (who administer it),
// a member, or restricted while still a member
// (https://core.telegram.org/bots/api#chatmember); left, banned, or
// restricted after leaving, they are not.
func TestChatMemberReadsEveryMemberStatus(t *testing.T) {
	tests := []struct {
		member string
		want   app.Membership
	}{
		{`{"status":"creator","user":{"id":7,"is_bot":false,"first_name":"A"},"is_anonymous":false}`, app.Admin},
		{`{"status":"administrator","user":{"id":7,"is_bot":false,"first_name":"A"},"can_be_edited":false,"is_anonymous":false}`, app.Admin},
		{`{"status":"member","user":{"id":7,"is_bot":false,"first_name":"A"}}`, app.Member},
		{`{"status":"restricted","user":{"id":7,"is_bot":false,"first_name":"A"},"is_member":true,"until_date":0}`, app.Member},
		{`{"status":"restricted","user":{"id":7,"is_bot":false,"first_name":"A"},"is_member":false,"until_date":0}`, app.NotMember},
		{`{"status":"left","user":{"id":7,"is_bot":false,"first_name":"A"}}`, app.NotMember},
		{`{"status":"kicked","user":{"id":7,"is_bot":false,"first_name":"A"},"until_date":0}`, app.NotMember},
	}
	for _, tt := range tests {
		t.Run(tt.member, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"ok":true,"result":%s}`, tt.member)
			}))
			t.Cleanup(srv.Close)
			c, err := telegram.New("123:abc", telegram.WithAPIURL(srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.ChatMember(t.Context(), -100, 7)
			if err != nil || got != tt.want {
				t.Fatalf("ChatMember = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}
