package app_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
)

func TestEncodeJoinsThePrefixAndTheFields(t *testing.T) {
	tests := []struct {
		data app.CallbackData
		want string
	}{
		{app.Data("wordle:", "y", "42", "7"), "wordle:y:42:7"},
		{app.Data("sched:", "d"), "sched:d"},
		{app.Data("help:", "lolschedule"), "help:lolschedule"},
		{app.Data("tick"), "tick"},
		{app.Data("x:", strings.Repeat("a", app.MaxCallbackData-2)), "x:" + strings.Repeat("a", app.MaxCallbackData-2)},
	}
	for _, tt := range tests {
		if got, err := tt.data.Encode(); err != nil || got != tt.want {
			t.Errorf("%+v.Encode() = %q, %v; want %q", tt.data, got, err, tt.want)
		}
	}
}

func TestEncodeRefusesWhatCouldNotBeReadBack(t *testing.T) {
	tests := map[string]app.CallbackData{
		"an empty prefix":            app.Data("", "a"),
		"an empty field":             app.Data("p:", "a", ""),
		"a field holding the ':'":    app.Data("p:", "a:b"),
		"a field that is not UTF-8":  app.Data("p:", "\xff"),
		"a prefix that is not UTF-8": app.Data("\xc3", "a"),
		"over 64 bytes":              app.Data("p:", strings.Repeat("a", app.MaxCallbackData-1)),
	}
	for name, d := range tests {
		if s, err := d.Encode(); !errors.Is(err, app.ErrCallbackData) {
			t.Errorf("%s: Encode() = %q, %v; want ErrCallbackData", name, s, err)
		}
	}
}

func TestParseCallbackReadsTheFieldsOfItsPrefix(t *testing.T) {
	tests := []struct {
		prefix, data string
		least, most  int
		want         []string
	}{
		{"wordle:", "wordle:g:123", 2, 3, []string{"g", "123"}},
		{"wordle:", "wordle:y:123:7", 2, 3, []string{"y", "123", "7"}},
		{"sched:", "sched:u", 1, 2, []string{"u"}},
		{"tick", "tick", 0, 0, nil},
	}
	for _, tt := range tests {
		d, err := app.ParseCallback(tt.prefix, tt.data, tt.least, tt.most)
		if err != nil || d.Prefix != tt.prefix || !slices.Equal(d.Fields, tt.want) {
			t.Errorf("ParseCallback(%q, %q) = %+v, %v; want fields %q", tt.prefix, tt.data, d, err, tt.want)
		}
	}
}

func TestParseCallbackRefusesAnythingElse(t *testing.T) {
	tests := map[string]struct {
		prefix, data string
		least, most  int
	}{
		"another prefix":        {"wordle:", "loldle:g:1", 2, 3},
		"too few fields":        {"wordle:", "wordle:g", 2, 3},
		"too many fields":       {"wordle:", "wordle:y:1:2:3", 2, 3},
		"no field at all":       {"help:", "help:", 1, 1},
		"an empty field":        {"wordle:", "wordle:g::1", 2, 3},
		"a trailing separator":  {"wordle:", "wordle:g:1:", 2, 3},
		"over 64 bytes":         {"p:", "p:" + strings.Repeat("a", app.MaxCallbackData-1), 1, 1},
		"not UTF-8":             {"p:", "p:\xff", 1, 1},
		"a prefix cut mid-rune": {"\xc3", "é", 0, 1},
		"an empty prefix":       {"", "a", 0, 1},
	}
	for name, tt := range tests {
		if d, err := app.ParseCallback(tt.prefix, tt.data, tt.least, tt.most); !errors.Is(err, app.ErrCallbackData) {
			t.Errorf("%s: ParseCallback(%q, %q) = %+v, %v; want ErrCallbackData", name, tt.prefix, tt.data, d, err)
		}
	}
}

func TestIntReadsOnlyTheFormAButtonCarries(t *testing.T) {
	tests := []struct {
		field string
		want  int64
		ok    bool
	}{
		{"42", 42, true},
		{"-9223372036854775808", -9223372036854775808, true},
		{"0", 0, true},
		{"+42", 0, false},
		{"042", 0, false},
		{"-0", 0, false},
		{"4e2", 0, false},
		{"9223372036854775808", 0, false},
		{"x", 0, false},
	}
	for _, tt := range tests {
		got, err := app.Data("p:", tt.field).Int(0)
		if ok := err == nil; ok != tt.ok || got != tt.want {
			t.Errorf("Int(%q) = %d, %v; want %d, ok %v", tt.field, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, app.ErrCallbackData) {
			t.Errorf("Int(%q): %v does not wrap ErrCallbackData", tt.field, err)
		}
	}
	if _, err := app.Data("p:", "1").Int(1); !errors.Is(err, app.ErrCallbackData) {
		t.Errorf("Int of a missing field = %v, want ErrCallbackData", err)
	}
}

func TestKeyboardRefusesDataThatDoesNotEncode(t *testing.T) {
	if _, err := app.Keyboard([]app.Button{{Text: "ok", Data: app.Data("p:", "a")}, {Text: "bad", Data: app.Data("p:", "a:b")}}); !errors.Is(err, app.ErrCallbackData) || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("Keyboard = %v, want ErrCallbackData naming the button", err)
	}
	kb, err := app.Keyboard([]app.Button{{Text: "ok", Data: app.Data("p:", "a", "1")}})
	if err != nil || kb.InlineKeyboard[0][0].CallbackData != "p:a:1" {
		t.Fatalf("Keyboard = %+v, %v", kb, err)
	}
}

// FuzzCallbackData: what Encode builds ParseCallback reads back unchanged,
// and whatever bytes a client sends, ParseCallback never panics and what
// it accepts Encode builds again byte for byte (one form per button).
func FuzzCallbackData(f *testing.F) {
	for _, s := range []string{"wordle:g:123", "wordle:y:1:11", "coin:p:BTC", "coin:s:-9223372036854775808", "sched:d:20261126", "sched:u", "help:wordle", "wordle:g::1", "é", "\xff"} {
		f.Add("wordle:", s, 3)
	}
	f.Add("p:", "g|123|7", 3) // fields for the round trip from Encode
	f.Fuzz(func(t *testing.T, prefix, data string, most int) {
		most = max(0, min(most, 40))
		if d, err := app.ParseCallback(prefix, data, 0, most); err == nil {
			if again, err := d.Encode(); err != nil || again != data {
				t.Fatalf("ParseCallback(%q, %q) = %q, which encodes to %q, %v", prefix, data, d.Fields, again, err)
			}
			for i := range d.Fields {
				_, _ = d.Int(i) // must not panic
			}
		} else if !errors.Is(err, app.ErrCallbackData) {
			t.Fatalf("ParseCallback(%q, %q): %v does not wrap ErrCallbackData", prefix, data, err)
		}
		// data read as fields: the round trip the other way.
		in := app.Data(prefix, strings.FieldsFunc(data, func(r rune) bool { return r == '|' })...)
		s, err := in.Encode()
		if err != nil {
			return
		}
		out, err := app.ParseCallback(prefix, s, len(in.Fields), len(in.Fields))
		if err != nil || out.Prefix != in.Prefix || !slices.Equal(out.Fields, in.Fields) {
			t.Fatalf("%+v encodes to %q, read back as %+v, %v", in, s, out, err)
		}
	})
}
