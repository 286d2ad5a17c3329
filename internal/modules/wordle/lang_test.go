package wordle

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/util"
)

// startText and viStart are a new game's message in English and Vietnamese.
const startText = "New Wordle: guess the five-letter word in six tries: type a word (in a group, reply to the board) or send /wordle <word>."

const viStart = "Ván Wordle mới: đoán từ tiếng Anh có năm chữ cái trong sáu lượt: gõ một từ (trong nhóm thì trả lời vào bảng) hoặc gửi /wordle <từ>."

// A Vietnamese player reads the whole game in Vietnamese: its start, a
// refused guess, a win, the buttons and their screens, the record. The
// words to guess stay English.
func TestAVietnameseUserPlaysWordleInVietnamese(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("crane", "robot")})
	const chat = apptest.PrivateChat
	b.Speaks(apptest.User, "vi")
	b.Converse(chat, apptest.User, []apptest.Step{
		{"/wordle_stats", "Chưa có ván Wordle nào kết thúc."},
		{"/wordle_giveup", "Chưa có ván Wordle nào đang chơi. Gửi /wordle để bắt đầu."},
		{"/wordle", viStart},
		{"/wordle cran", "Mỗi lượt đoán là một từ có năm chữ cái."},
		{"/wordle cr4ne", "Từ đoán chỉ được dùng các chữ cái từ a đến z."},
		{"/wordle abcde", `"abcde" không có trong danh sách từ.`},
		{"/wordle trace", "⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"},
		{"/wordle trace", "\"trace\" đã được đoán rồi.\n⬛🟩🟩🟨🟩  TRACE\n1/6\n🟩 A E R\n🟨 C\n⬛ T"},
		{"/wordle crane", "⬛🟩🟩🟨🟩  TRACE\n🟩🟩🟩🟩🟩  CRANE\n2/6\n🟩 A C E N R\n⬛ T\nĐoán trúng sau 2/6 lượt!"},
	})
	if got := b.Buttons(chat); got != "[🔄 Ván mới]" {
		t.Fatalf("a won game's keyboard: %q", got)
	}
	press := func(label string) {
		t.Helper()
		if _, err := b.Press(chat, apptest.User, label); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
	}
	lastEdit := func() string {
		edits := b.Srv.Edits()
		return edits[len(edits)-1].Text
	}
	press("🔄 Ván mới")
	if got := b.Last(); got != viStart || b.Buttons(chat) != "[🏳 Bỏ cuộc]" {
		t.Fatalf("a new game: %q with %s", got, b.Buttons(chat))
	}
	press("🏳 Bỏ cuộc")
	if got := lastEdit(); got != "Bạn muốn bỏ cuộc ván Wordle này à?\n0/6" || b.Buttons(chat) != "[Có, bỏ cuộc] [Không, chơi tiếp]" {
		t.Fatalf("the confirmation: %q with %s", got, b.Buttons(chat))
	}
	press("Có, bỏ cuộc")
	if got := lastEdit(); got != "Từ cần đoán là ROBOT." {
		t.Fatalf("given up: %q", got)
	}
	b.Expect(chat, apptest.User, "/wordle_stats", "Đã chơi 2, thắng 1 (50%)\nChuỗi thắng 0, dài nhất 1\n1: 0\n2: █1\n3: 0\n4: 0\n5: 0\n6: 0")
}

// /help lists wordle's commands and its inline query in the reader's
// language.
func TestAVietnameseUserReadsWordlesHelpInVietnamese(t *testing.T) {
	b := apptest.New(t, []app.Factory{util.Factory, Factory})
	b.Speaks(apptest.User, "vi")
	b.MustSay(apptest.PrivateChat, apptest.User, "/help")
	got := b.Last()
	for _, want := range []string{
		"/wordle_new - Bắt đầu ván Wordle mới",
		"<i>inline</i> wordle - ván bạn chơi xong hôm nay, bảng không có chữ cái, để chia sẻ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/help = %q, want it to hold %q", got, want)
		}
	}
}
