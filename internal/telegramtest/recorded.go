package telegramtest

import (
	"embed"
	"encoding/json"
	"testing"

	"github.com/go-telegram/bot/models"
)

//go:embed testdata/*.json
var recorded embed.FS

// Recorded is one of the recorded updates in testdata (see its README).
func Recorded(t testing.TB, name string) json.RawMessage {
	t.Helper()
	b, err := recorded.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RecordedUpdate is a recorded update, decoded.
func RecordedUpdate(t testing.TB, name string) *models.Update {
	t.Helper()
	var u models.Update
	if err := json.Unmarshal(Recorded(t, name), &u); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &u
}

// Saying makes u's message say text, with the bot_command entity Telegram
// gives a command; the rest of the recorded message stays as it was.
func Saying(u *models.Update, text string) *models.Update {
	m := Text(u.Message.Chat.ID, 0, text).Message
	u.Message.Text, u.Message.Entities = m.Text, m.Entities
	u.Message.Photo = nil
	return u
}
