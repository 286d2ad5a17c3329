// Package console runs the whole bot in a terminal: each line typed is a
// message from a local user (the owner) in a local private chat, and the
// bot's messages are printed. No token, no network: it is how a newcomer
// tries the bot with one command.
package console

import (
	"bufio"
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
	mu  sync.Mutex
	out io.Writer
	seq int
}

// NewMessenger prints to out.
func NewMessenger(out io.Writer) *Messenger { return &Messenger{out: out} }

var tags = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)

// plain turns Telegram HTML into terminal text.
func plain(text string, mode models.ParseMode) string {
	if mode != models.ParseModeHTML {
		return text
	}
	return html.UnescapeString(tags.ReplaceAllString(text, ""))
}

func (m *Messenger) print(prefix, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(m.out, "%s%s\n", prefix, line)
	}
}

// Send prints a message.
func (m *Messenger) Send(_ context.Context, msg app.Message) (*models.Message, error) {
	msg.Text, msg.ParseMode = app.Fit(msg.Text, msg.ParseMode) // as Telegram would take it
	prefix := "bot> "
	if msg.ChatID != ChatID {
		prefix = fmt.Sprintf("bot (to chat %d)> ", msg.ChatID)
	}
	m.print(prefix, plain(msg.Text, msg.ParseMode))
	m.mu.Lock()
	m.seq++
	id := m.seq
	m.mu.Unlock()
	return &models.Message{ID: id, Chat: models.Chat{ID: msg.ChatID}, Text: msg.Text}, nil
}

// AnswerCallback prints a toast, if any.
func (m *Messenger) AnswerCallback(_ context.Context, _ string, text string) error {
	if text != "" {
		m.print("bot (toast)> ", text)
	}
	return nil
}

// SetCommands has no menu to update in a terminal.
func (m *Messenger) SetCommands(context.Context, []models.BotCommand) error { return nil }

// GetMe returns the console bot.
func (m *Messenger) GetMe(context.Context) (*models.User, error) {
	return &models.User{ID: 0, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"}, nil
}

// Run reads lines from in until EOF or ctx ends, handing each to handle as a
// message update from the local user.
func Run(ctx context.Context, in io.Reader, out io.Writer, handle func(context.Context, *models.Update) error) error {
	fmt.Fprintln(out, "miti99bot console: type /help, or Ctrl-D to quit.")
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		errc <- sc.Err()
		close(lines)
	}()
	// Ids unique across sessions: a persistent store remembers handled ids.
	id := time.Now().UnixMicro()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				return <-errc
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			id++
			if err := handle(ctx, update(id, line)); err != nil {
				fmt.Fprintf(out, "(not handled: %v)\n", err)
			}
		}
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
		msg.Entities = []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Length: len(utf16.Encode([]rune(cmd)))}}
	}
	return &models.Update{ID: id, Message: msg}
}
