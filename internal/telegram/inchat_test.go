package telegram_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegram"
)

// A user is in a chat as its owner, an administrator, a member, or
// restricted while still a member (https://core.telegram.org/bots/api#chatmember);
// left, banned, or restricted after leaving, they are not.
func TestInChatReadsEveryMemberStatus(t *testing.T) {
	tests := []struct {
		member string
		in     bool
	}{
		{`{"status":"creator","user":{"id":7,"is_bot":false,"first_name":"A"},"is_anonymous":false}`, true},
		{`{"status":"administrator","user":{"id":7,"is_bot":false,"first_name":"A"},"can_be_edited":false,"is_anonymous":false}`, true},
		{`{"status":"member","user":{"id":7,"is_bot":false,"first_name":"A"}}`, true},
		{`{"status":"restricted","user":{"id":7,"is_bot":false,"first_name":"A"},"is_member":true,"until_date":0}`, true},
		{`{"status":"restricted","user":{"id":7,"is_bot":false,"first_name":"A"},"is_member":false,"until_date":0}`, false},
		{`{"status":"left","user":{"id":7,"is_bot":false,"first_name":"A"}}`, false},
		{`{"status":"kicked","user":{"id":7,"is_bot":false,"first_name":"A"},"until_date":0}`, false},
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
			in, err := c.InChat(t.Context(), -100, 7)
			if err != nil || in != tt.in {
				t.Fatalf("InChat = %t, %v; want %t", in, err, tt.in)
			}
		})
	}
}
