package loldle

import (
	"fmt"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// enStart is a new game's message in English.
func enStart(max int) string {
	return fmt.Sprintf("New loldle: guess the champion in %d tries: type a name (in a group, reply to the board) or send /loldle <champion>.\n%s", max, legend)
}

// legend is the marks' key in English.
const legend = "🟩 same · 🟨 partly · 🟥 different · ⬆️ the answer is newer · ⬇️ older"

// A Vietnamese player reads loldle in Vietnamese: its start, the
// attributes of a guess, a wrong name, a win, the record, and the owner's
// limit. Champions, species, resources and regions stay as the table names
// them; gender, positions and range read in Vietnamese.
func TestAVietnameseUserPlaysLoldleInVietnamese(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Kai'Sa")})
	b.Speaks(apptest.User, "vi")
	b.Speaks(apptest.Owner, "vi")
	start := "Ván loldle mới: đoán vị tướng trong 8 lượt: gõ tên tướng (trong nhóm thì trả lời vào bảng) hoặc gửi /loldle <tướng>.\n" +
		"🟩 trùng · 🟨 trùng một phần · 🟥 khác · ⬆️ đáp án ra mắt sau · ⬇️ đáp án ra mắt trước"
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/loldle_stats", "Chưa có ván loldle nào kết thúc."},
		{"/loldle kassadin", start + "\n\nKassadin\n🟥 Giới tính: Nam\n🟥 Vị trí: Đường giữa\n🟩 Chủng loài: Human, Void-Being\n" +
			"🟩 Tài nguyên: Mana\n🟥 Tầm đánh: Cận chiến\n🟨 Khu vực: Shurima, The Void\n⬆️ Năm ra mắt: 2009\n1/8"},
		{"/loldle Kassadin", "Kassadin đã được đoán rồi.\n🟥🟥🟩🟩🟥🟨⬆️ Kassadin\n1/8"},
		{"/loldle teemoo", "Không có tướng nào tên \"teemoo\". Gõ sai tên không mất lượt."},
		{"/loldle mal", "Ý bạn là tướng nào? Malphite, Malzahar"},
		{"/loldle KAISA", "Kai'Sa\n🟩 Giới tính: Nữ\n🟩 Vị trí: Đường dưới\n🟩 Chủng loài: Human, Void-Being\n🟩 Tài nguyên: Mana\n" +
			"🟩 Tầm đánh: Đánh xa\n🟩 Khu vực: The Void\n🟩 Năm ra mắt: 2018\n2/8\nĐoán trúng sau 2 lượt! Đó là Kai'Sa."},
		{"/loldle_giveup", "Chưa có ván loldle nào đang chơi. Gửi /loldle để bắt đầu."},
		{"/loldle_stats", "Đã chơi 1, thắng 1 (100%)\nChuỗi thắng 1, dài nhất 1\nSố lượt trung bình mỗi lần thắng: 2,0"},
	})
	b.Expect(apptest.PrivateChat, apptest.Owner, "/loldle_setmax 11", "Cách dùng: /loldle_setmax <1..10> (hiện là 8)")
	b.Expect(apptest.PrivateChat, apptest.Owner, "/loldle_setmax 2", "Các ván loldle mới được 2 lượt; ván đang chơi giữ nguyên số lượt của nó.")
}

// English keeps its plural: a limit of one is "1 try".
func TestALimitOfOneReadsAsOneTry(t *testing.T) {
	b := apptest.New(t, []app.Factory{fixed("Ahri")})
	b.Expect(apptest.PrivateChat, apptest.Owner, "/loldle_setmax 1", "New loldle games allow 1 try; running games keep theirs.")
}

// Every gender, position and range a champion may have reads in each
// language; English as the table writes it.
func TestEveryTranslatedAttributeValueHasATextInEveryLanguage(t *testing.T) {
	cat := locale.NewCatalog(locale.Source{Namespace: Name, FS: games.Texts(texts)})
	for _, attr := range translated {
		for _, v := range categories[attr] {
			for _, l := range locale.Langs {
				if !cat.Has(l, Name+"."+valueKey(attr, v)) {
					t.Errorf("%s %q has no text in %s", attr, v, l)
				}
			}
			if got := app.NewWords(cat, Name, app.English).T(valueKey(attr, v)); got != v {
				t.Errorf("%q reads %q in English", v, got)
			}
		}
	}
}
