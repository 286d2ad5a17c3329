package app

import "errors"

// lackedRight is what an adapter's ErrNoRights error implements when
// Telegram named the kind of message the bot may not send ("photos").
type lackedRight interface{ LackedRight() string }

// LackedRight is the kind of message a send refused for rights
// (ErrNoRights) could not carry, as Telegram named it ("photos", "text
// messages"); "" when it named none (the bot may send nothing there) or
// err is no such refusal.
func LackedRight(err error) string {
	var r lackedRight
	if !errors.Is(err, ErrNoRights) || !errors.As(err, &r) {
		return ""
	}
	return r.LackedRight()
}

// NoRightText is what to tell a chat, in text, when a send was refused for
// a right other than sending text (a chart in a group that forbids
// photos): the chat still reads text, and silence would look like a broken
// bot. ok is false for any other error, a refusal of text included.
func NoRightText(err error) (text string, ok bool) {
	right := LackedRight(err)
	if right == "" || right == "text messages" {
		return "", false
	}
	return "I may not send " + right + " in this chat: an admin can allow it in the chat's permissions.", true
}
