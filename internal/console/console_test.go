package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// typed runs a session over input and returns the texts handed to the bot
// and what the console printed.
func typed(t *testing.T, input string) ([]string, string) {
	t.Helper()
	var got []string
	var out bytes.Buffer
	err := NewMessenger(&out).Run(t.Context(), strings.NewReader(input), &out, func(_ context.Context, u *models.Update) error {
		got = append(got, u.Message.Text)
		return nil
	})
	if err != nil {
		t.Fatalf("Run = %v; the session must end only at EOF", err)
	}
	return got, out.String()
}

// A line over MaxLine is skipped with a note, and the session goes on: it
// once ended the console (bufio.Scanner's 64 KiB token limit).
func TestALongLineIsSkippedAndTheSessionGoesOn(t *testing.T) {
	atLimit := strings.Repeat("a", MaxLine)
	over := strings.Repeat("b", MaxLine+1)
	huge := strings.Repeat("c", 4*MaxLine)
	tests := []struct {
		name, input string
		want        []string
		skipped     int
	}{
		{"a line at the limit is read", "/ping\n" + atLimit + "\nafter\n", []string{"/ping", atLimit, "after"}, 0},
		{"a line one byte over is skipped", "/ping\n" + over + "\nafter\n", []string{"/ping", "after"}, 1},
		{"a line of many buffers is skipped whole", huge + "\n/ping\n" + huge + "\n", []string{"/ping"}, 2},
		{"a long last line without a newline is skipped", "/ping\n" + huge, []string{"/ping"}, 1},
		{"a last line of whole buffers is read", "/ping\n" + strings.Repeat("d", 8192), []string{"/ping", strings.Repeat("d", 8192)}, 0},
		{"CRLF lines read as lines", "/ping\r\nafter\r\n", []string{"/ping", "after"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, out := typed(t, tt.input)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("handled %d lines %.40q; want %.40q", len(got), got, tt.want)
			}
			if n := strings.Count(out, "(line skipped: longer than 64 KiB)\n"); n != tt.skipped {
				t.Fatalf("%d skip notes, want %d:\n%.300s", n, tt.skipped, out)
			}
		})
	}
}
