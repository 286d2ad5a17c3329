package telegram_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

func TestOneUndecodableUpdateDoesNotHoldBackTheBatch(t *testing.T) {
	srv := telegramtest.New(t)
	logs := &testenv.Buffer{}
	c, _ := newClient(t, srv, telegram.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	srv.PushRaw(t,
		telegramtest.Recorded(t, "update_group_text.json"),
		telegramtest.Recorded(t, "update_forward_unknown_origin.json"),
		telegramtest.Recorded(t, "update_group_text_after.json"))

	got, err := c.GetUpdates(t.Context(), 0, 0)
	if err != nil {
		t.Fatalf("GetUpdates = %v; one bad update must not fail the batch", err)
	}
	if len(got) != 3 || got[0].Message == nil || got[2].Message == nil || got[2].Message.Text != "/ping" {
		t.Fatalf("GetUpdates = %+v, want all three, the later one decoded", got)
	}
	if bad := got[1]; bad.ID != 900002 || bad.Message != nil {
		t.Fatalf("the undecodable update = %+v, want only its id, so the offset can pass it", bad)
	}
	line := logs.String()
	if !strings.Contains(line, "update skipped: undecodable") || !strings.Contains(line, `"update_id":900002`) {
		t.Fatalf("the skip is not logged with its id: %s", line)
	}
	if strings.Contains(line, "secret forwarded words") {
		t.Fatalf("the log carries the update's content: %s", line)
	}
}
