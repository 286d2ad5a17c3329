package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
)

// scripted is a bot for the console's seams: "kbA" and "kbB" reply with
// two buttons A1 A2 (B1 B2), "kb1" with one, "plain" replies without any,
// "strip" edits the kbA reply's buttons away; a press is recorded as its
// data.
type scripted struct {
	m    *Messenger
	ids  map[string]int // the reply to "kbA", "kbB": its message id
	seen []string       // texts and presses' data, in order
}

func (s *scripted) handle(ctx context.Context, u *models.Update) error {
	if q := u.CallbackQuery; q != nil {
		s.seen = append(s.seen, "press "+q.Data+" on "+map[int]string{s.ids["kbA"]: "A", s.ids["kbB"]: "B"}[q.Message.Message.ID])
		return nil
	}
	text := u.Message.Text
	s.seen = append(s.seen, text)
	switch text {
	case "kbA", "kbB", "kb1":
		name := text[2:]
		buttons := []app.Button{{Text: name + "1", Data: app.Data("t:", name+"1")}, {Text: name + "2", Data: app.Data("t:", name+"2")}}
		if name == "1" {
			buttons = buttons[:1]
		}
		kb := app.MustKeyboard(buttons)
		msg, err := s.m.Send(ctx, app.Message{ChatID: ChatID, Text: "reply " + name, Keyboard: kb})
		if err != nil {
			return err
		}
		s.ids[text] = msg.ID
	case "plain":
		_, err := s.m.Send(ctx, app.Message{ChatID: ChatID, Text: "no buttons"})
		return err
	case "strip":
		return s.m.Edit(ctx, app.Edit{ChatID: ChatID, MessageID: s.ids["kbA"], Text: "reply A, done"})
	}
	return nil
}

// session runs the scripted bot over input: what reached the bot, and
// what the console printed.
func session(t *testing.T, input string) ([]string, string) {
	t.Helper()
	var out bytes.Buffer
	s := &scripted{m: NewMessenger(&out), ids: map[string]int{}}
	if err := s.m.Run(t.Context(), strings.NewReader(input), &out, s.handle); err != nil {
		t.Fatalf("Run = %v", err)
	}
	return s.seen, out.String()
}

// A number presses a button of the latest reply that has buttons, and no
// other; a number no button has is answered by the console and reaches the
// bot neither as a press nor as text. Each keyboard says once how to press.
func TestANumberPressesOnlyTheLatestKeyboard(t *testing.T) {
	tests := []struct {
		name, input string
		seen        []string // what reached the bot
		says        string   // a line the console printed, "" for none
	}{
		{"before any buttons a number is answered, not sent", "1\n", nil, "(no button 1: no message shows buttons now; try /help)"},
		{"a number presses the latest keyboard", "kbA\nkbB\n1\n", []string{"kbA", "kbB", "press t:B1 on B"}, ""},
		{"a reply without buttons keeps the latest keyboard", "kbA\nplain\n2\n", []string{"kbA", "plain", "press t:A2 on A"}, ""},
		{"a number past the buttons is answered", "kbA\n3\n", []string{"kbA"}, "(no button 3: the latest buttons are 1 to 2)"},
		{"zero is no button", "kbA\n0\n", []string{"kbA"}, "(no button 0: the latest buttons are 1 to 2)"},
		{"an older keyboard's number is not pressed", "kbA\nkbB\nstrip\n1\n", []string{"kbA", "kbB", "strip", "press t:B1 on B"}, ""},
		{"buttons edited away leave none", "kbA\nstrip\n1\n", []string{"kbA", "strip"}, "(no button 1: no message shows buttons now; try /help)"},
		{"a long number is a message", "kbA\n2026\n", []string{"kbA", "2026"}, ""},
		{"a single button is named", "kb1\n2\n", []string{"kb1"}, "(no button 2: the latest buttons are just 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen, out := session(t, tt.input)
			if strings.Join(seen, "|") != strings.Join(tt.seen, "|") {
				t.Fatalf("the bot got %q; want %q\n%s", seen, tt.seen, out)
			}
			if tt.says != "" && !strings.Contains(out, "\n"+tt.says+"\n") {
				t.Fatalf("the console did not say %q:\n%s", tt.says, out)
			}
			keyboards := strings.Count(tt.input, "kb")
			if n := strings.Count(out, "     (type a button's number to press it)\n"); n != keyboards {
				t.Fatalf("%d press hints for %d keyboards:\n%s", n, keyboards, out)
			}
		})
	}
}

// The first lines say who you are, how to quit and, when the runtime says,
// where the logs go: never among the conversation.
func TestTheConsoleSaysWhereTheLogsGoOnceAtStart(t *testing.T) {
	tests := []struct {
		name, logs, want string
	}{
		{"a log file is named", "/tmp/miti99bot-console-1.log", "Logs go to /tmp/miti99bot-console-1.log.\n"},
		{"stderr is named", "stderr", "Logs go to stderr.\n"},
		{"nothing said when unset", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			m := NewMessenger(&out)
			m.Logs = tt.logs
			if err := m.Run(t.Context(), strings.NewReader("a\nb\n"), &out, func(context.Context, *models.Update) error { return nil }); err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(out.String(), "\n")
			if !strings.HasPrefix(lines[0], "miti99bot console: ") {
				t.Fatalf("first line %q", lines[0])
			}
			if n := strings.Count(out.String(), "Logs go to"); tt.want == "" && n != 0 || tt.want != "" && (n != 1 || lines[1] != tt.want) {
				t.Fatalf("output %q; want %q once, second", out.String(), tt.want)
			}
		})
	}
}
