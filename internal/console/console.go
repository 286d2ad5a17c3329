// Package console runs the whole bot in a terminal: each line typed is a
// message from a local user (the owner) in a local private chat, and the
// bot's messages are printed. No token, no network: it is how a newcomer
// tries the bot with one command. A message's buttons print as a numbered
// list; typing a number presses that button of the latest keyboard. Logs go
// elsewhere (the runtime says where), and the pictures written for display
// are removed by Close.
package console

import (
	"context"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// The local user and chat of a console session.
const (
	UserID int64 = 1
	ChatID int64 = 1
)

var _ app.Messenger = (*Messenger)(nil)

// Messenger prints what the bot would send to Telegram. It satisfies
// app.Messenger and is safe for concurrent use (cron jobs print too).
type Messenger struct {
	// PhotoDir is where pictures are written ("": the system's temporary
	// directory).
	PhotoDir string
	// Logs says where the logs go, once at the start ("": nothing said).
	Logs string
	// Lang is the language_code the user's updates carry, as a Telegram
	// client set to it sends ("vi": the bot answers in Vietnamese; "":
	// none, so English).
	Lang string

	mu        sync.Mutex
	out       io.Writer
	seq       int
	buttons   []button // the latest keyboard's, in print order
	kbMessage int      // the message the latest keyboard is on
	photos    []string // the files written, removed by Close
}

// NewMessenger prints to out.
func NewMessenger(out io.Writer) *Messenger { return &Messenger{out: out} }

var tags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[a-zA-Z][^>]*>`) })

// plain turns Telegram HTML into terminal text.
func plain(text string, mode models.ParseMode) string {
	if mode != models.ParseModeHTML {
		return text
	}
	return html.UnescapeString(tags().ReplaceAllString(text, ""))
}

func (m *Messenger) print(prefix, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(m.out, "%s%s\n", prefix, line)
	}
}

// Send prints a message, and its buttons as a numbered list.
func (m *Messenger) Send(_ context.Context, msg app.Message) (*models.Message, error) {
	msg.Text, msg.ParseMode = app.Fit(msg.Text, msg.ParseMode) // as Telegram would take it
	m.print(m.sendPrefix(msg.ChatID), plain(msg.Text, msg.ParseMode))
	id := m.posted(msg.ChatID, msg.Keyboard)
	return &models.Message{ID: id, Chat: models.Chat{ID: msg.ChatID}, Text: msg.Text}, nil
}

// sendPrefix starts the lines of a message sent to chat: another chat's
// (a group a job posts to) is named.
func (m *Messenger) sendPrefix(chat int64) string {
	if chat != ChatID {
		return m.say("to_chat", map[string]any{"Chat": chat})
	}
	return "bot> "
}

// posted numbers a message just printed, and prints its buttons when it
// went to this terminal's chat.
func (m *Messenger) posted(chatID int64, kb *models.InlineKeyboardMarkup) int {
	m.mu.Lock()
	m.seq++
	id := m.seq
	m.mu.Unlock()
	if kb != nil && chatID == ChatID {
		m.keyboard(id, kb)
	}
	return id
}

// Edit prints the message's new text and buttons.
func (m *Messenger) Edit(_ context.Context, e app.Edit) error {
	e.Text, e.ParseMode = app.Fit(e.Text, e.ParseMode)
	m.print(m.say("edits", map[string]any{"Message": e.MessageID}), plain(e.Text, e.ParseMode))
	if e.ChatID == ChatID {
		m.keyboard(e.MessageID, e.Keyboard)
	}
	return nil
}

// AnswerCallback prints a toast, if any.
func (m *Messenger) AnswerCallback(_ context.Context, _ string, text string) error {
	if text != "" {
		m.print(m.say("toast"), text)
	}
	return nil
}

// SetCommands has no menu to update in a terminal.
func (m *Messenger) SetCommands(context.Context, app.Menu) error { return nil }

// GetMe returns the console bot.
func (m *Messenger) GetMe(context.Context) (*models.User, error) {
	return &models.User{ID: 0, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"}, nil
}

// ChatMember: the console's one user is in every chat it types in, and
// administers none (the console is one private chat, where no chat acts as
// itself).
func (m *Messenger) ChatMember(context.Context, int64, int64) (app.Membership, error) {
	return app.Member, nil
}

// Run reads lines from in until EOF or ctx ends, handing each to handle as a
// message update from the local user, or, when it is a number, as the press
// of that button of the latest keyboard (a number no button has is
// answered here, not sent), or, when it starts with "@", as an inline
// query (inlineQuery).
func (m *Messenger) Run(ctx context.Context, in io.Reader, out io.Writer, handle func(context.Context, *models.Update) error) error {
	fmt.Fprintln(out, m.say("banner"))
	if m.Logs != "" {
		fmt.Fprintln(out, m.say("logs", map[string]any{"Where": m.Logs}))
	}
	lines := make(chan line)
	errc := make(chan error, 1)
	go func() {
		errc <- readLines(ctx, in, lines)
		close(lines)
	}()
	// Ids unique across sessions: a persistent store remembers handled ids.
	id := time.Now().UnixMicro()
	for {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				return <-errc
			}
			if l.tooLong {
				fmt.Fprintln(out, m.say("line_skipped", map[string]any{"KiB": MaxLine >> 10}))
				continue
			}
			text := strings.TrimSpace(l.text)
			if text == "" {
				continue
			}
			id++
			u := update(id, text)
			if q, ok := inlineQuery(text); ok {
				u = inlineUpdate(id, q)
			} else if b, refusal, ok := m.press(text); refusal != "" {
				fmt.Fprintln(out, refusal)
				continue
			} else if ok {
				u = pressUpdate(id, b)
			}
			m.speak(u)
			if err := handle(ctx, u); err != nil {
				fmt.Fprintln(out, m.say("not_handled", map[string]any{"Err": err}))
			}
		}
	}
}

// speak gives u's sender the console's language_code.
func (m *Messenger) speak(u *models.Update) {
	switch {
	case u.Message != nil:
		u.Message.From.LanguageCode = m.Lang
	case u.CallbackQuery != nil:
		u.CallbackQuery.From.LanguageCode = m.Lang
	case u.InlineQuery != nil:
		u.InlineQuery.From.LanguageCode = m.Lang
	}
}

func update(id int64, text string) *models.Update {
	msg := &models.Message{
		ID:   int(id),
		From: &models.User{ID: UserID, FirstName: "You", Username: "you"},
		Date: int(time.Now().Unix()),
		Chat: models.Chat{ID: ChatID, Type: models.ChatTypePrivate},
		Text: text,
	}
	if strings.HasPrefix(text, "/") {
		cmd, _, _ := strings.Cut(text, " ")
		units := 0 // an entity's length counts UTF-16 code units
		for _, r := range cmd {
			units += utf16.RuneLen(r)
		}
		msg.Entities = []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Length: units}}
	}
	return &models.Update{ID: id, Message: msg}
}
