package locale_test

import (
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/locale"
)

func TestARepliesTextIsRecognisedInEveryLanguageWhateverItsValuesRead(t *testing.T) {
	c := locale.NewCatalog(locale.Source{Namespace: "m", FS: files(
		"set = \"Reminder set for {{.When}}: {{.What}}\"\nsame = \"OK, done\"\nnoun = \"gold\"\npair = \"{{.A}}: {{.B}}\"\n[won]\none = \"{{.Name}} won in {{.Count}} try\"\nother = \"{{.Name}} won in {{.Count}} tries\"\n",
		"set = \"Đã đặt nhắc lúc {{.When}}: {{.What}}\"\nsame = \"OK, done\"\nnoun = \"vàng\"\npair = \"{{.A}} - {{.B}}\"\n[won]\nother = \"{{.Name}} thắng sau {{.Count}} lượt\"\n")})
	for _, tt := range []struct {
		reply string
		key   string // a key it is the text of ("" for none)
		langs []locale.Lang
	}{
		{"Reminder set for 08:00: tea", "m.set", []locale.Lang{locale.English}},
		{"Đã đặt nhắc lúc 08:00: trà: nóng", "m.set", []locale.Lang{locale.Vietnamese}},
		{"An won in 1 try", "m.won", []locale.Lang{locale.English}},
		{"An won in 1,234 tries", "m.won", []locale.Lang{locale.English}},
		{"An thắng sau 1.234 lượt", "m.won", []locale.Lang{locale.Vietnamese}},
		{"OK, done", "m.same", []locale.Lang{locale.English, locale.Vietnamese}},
		// One word may be a name as well as a text: it tells no language.
		{"gold", "m.noun", nil},
		// A text is read whole: more or less around it is another text.
		{"Reminder set for 08:00 tea", "", nil},
		{"So: Reminder set for 08:00: tea", "", nil},
		{"OK, done!", "", nil},
		// Nor does one without a word of its own.
		{"BTC: 1.5", "", nil},
	} {
		if got := c.Speaks(tt.reply); !slices.Equal(got, tt.langs) {
			t.Errorf("Speaks(%q) = %v, want %v", tt.reply, got, tt.langs)
		}
		for _, key := range []string{"m.set", "m.won", "m.same", "m.noun"} {
			if got, want := c.Says(key, tt.reply), key == tt.key; got != want {
				t.Errorf("Says(%s, %q) = %t, want %t", key, tt.reply, got, want)
			}
		}
	}
	// It is still its key's text, to a reader who asks for that key.
	if !c.Says("m.pair", "BTC: 1.5") || !c.Says("m.pair", "BTC - 1.5") {
		t.Error("Says(m.pair) does not know its text in both languages")
	}
}
