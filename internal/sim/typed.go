package sim

import (
	"strings"

	"github.com/go-telegram/bot/models"
)

// typedGuess starts how the history names a guess typed as a plain word.
const typedGuess = "<typed wordle guess"

// wordleButtons starts the data of wordle's buttons: a group's typed guess
// replies to a message carrying them.
const wordleButtons = "wordle:"

// mayType sends a guess at a chat's running game as the plain word, one
// time in three: in a private chat as it is, in a group as a reply to the
// game's latest message with its buttons (in that message's topic), all a
// group's privacy mode lets the bot hear. The bot takes it as the command
// (not counted as one in the stats), once per update however often it is
// delivered. The draws are from the users' talk stream, so a seed's other
// draws stay.
func (l *life) mayType(c *chat, before *storedGame, cmd *command) {
	if before == nil || before.Over || l.cv.IntN(3) != 0 {
		return
	}
	if c.kind != private {
		kb := l.gameMessage(c, wordleButtons)
		if kb == nil {
			return
		}
		cmd.replyTo = kb
		l.hist.count("typed-guesses-replied", 1)
	}
	_, word, _ := strings.Cut(cmd.text, " ")
	cmd.text, cmd.cmd = word, ""
	cmd.what = typedGuess + " " + strings.Trim(strings.TrimPrefix(cmd.what, "/wordle "), "<>") + ">"
	l.hist.count("typed-guesses", 1)
}

// gameMessage is the latest message in c, in an open topic, whose buttons
// are a game's (their data starts with prefix), or nil.
func (l *life) gameMessage(c *chat, prefix string) *keyboard {
	ids := sortedKeys(l.keyboards[c.id])
	for i := len(ids) - 1; i >= 0; i-- {
		kb := l.keyboards[c.id][ids[i]]
		if c.closed[kb.thread] || len(kb.rows) == 0 || len(kb.rows[0]) == 0 {
			continue
		}
		if strings.HasPrefix(kb.rows[0][0].CallbackData, prefix) {
			return &kb
		}
	}
	return nil
}

// replyToBot makes msg a reply to the bot's message id in c, which
// carries the buttons rows (none: nil), as Telegram sends it.
func replyToBot(msg *models.Message, c *chat, id int, rows [][]models.InlineKeyboardButton) {
	to := &models.Message{ID: id, Chat: chatOf(c), From: &models.User{ID: botID, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"}}
	if rows != nil {
		to.ReplyMarkup = &models.InlineKeyboardMarkup{InlineKeyboard: rows}
	}
	msg.ReplyToMessage = to
}
