package app

import (
	"errors"
	"strings"
)

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

// NoRightText is NoRightText (the package function) in w's language: the
// right named as the catalog names it (core.right.<kind>), else as
// Telegram did.
func (w Words) NoRightText(err error) (text string, ok bool) {
	right := LackedRight(err)
	if right == "" || right == "text messages" {
		return "", false
	}
	if key := engineNS + ".right." + strings.ReplaceAll(right, " ", "_"); w.cat != nil && w.cat.Has(w.Lang, key) {
		right = w.cat.Text(w.Lang, key, nil)
	}
	return w.T(engineNS+".no_right", Args{"Right": right}), true
}

// NoRightText is what to tell a chat, in text, when a send was refused for
// a right other than sending text (a chart in a group that forbids
// photos): the chat still reads text, and silence would look like a broken
// bot. ok is false for any other error, a refusal of text included. It is
// English only: a module with Texts says req.NoRightText(err).
func NoRightText(err error) (text string, ok bool) {
	right := LackedRight(err)
	if right == "" || right == "text messages" {
		return "", false
	}
	return "I may not send " + right + " in this chat: an admin can allow it in the chat's permissions.", true
}
