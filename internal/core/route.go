package core

import (
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
)

// parsedCommand is a command found in a message.
type parsedCommand struct {
	name    string // lower case, without "/" and mention
	mention string // the @bot part, without "@"; "" when absent
	args    string
}

// parseCommand finds the bot_command entity at offset 0, the only place
// Telegram puts a command the bot should answer. Entity offsets and lengths
// count UTF-16 code units, so the text is measured that way.
func parseCommand(msg *models.Message) (parsedCommand, bool) {
	text := msg.Text
	entities := msg.Entities
	if text == "" {
		text, entities = msg.Caption, msg.CaptionEntities
	}
	for _, e := range entities {
		if e.Type != models.MessageEntityTypeBotCommand || e.Offset != 0 {
			continue
		}
		cmd, rest, ok := splitUTF16(text, e.Length)
		if !ok || !strings.HasPrefix(cmd, "/") {
			return parsedCommand{}, false
		}
		name, mention, _ := strings.Cut(cmd[1:], "@")
		return parsedCommand{name: strings.ToLower(name), mention: mention, args: strings.TrimSpace(rest)}, true
	}
	return parsedCommand{}, false
}

// splitUTF16 splits s after n UTF-16 code units.
func splitUTF16(s string, n int) (head, tail string, ok bool) {
	units := 0
	for i, r := range s {
		if units == n {
			return s[:i], s[i:], true
		}
		units += utf16.RuneLen(r)
	}
	if units == n {
		return s, "", true
	}
	return "", "", false
}
