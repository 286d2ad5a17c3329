package twentyq

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// The English texts the tests compare.
const (
	unavailableText   = "Twenty questions is unavailable: no Gemini API key is configured."
	startText         = "I am thinking of something. Ask yes/no questions (20 at most), or guess it: type them (in a group, reply to me) or send /twentyq <question>."
	misconfiguredText = "Gemini refused the bot's configuration, so twenty questions cannot work until the bot's owner fixes it (the log says what). Your question was not counted."
	runningText       = "A game is running: type a question (in a group, reply to me) or send /twentyq <question>; /twentyq_giveup ends it."
)

// viWords are the module's words in Vietnamese.
func viWords() app.Words {
	cat := locale.NewCatalog(locale.Source{Namespace: Name, FS: games.Texts(texts)})
	return app.NewWords(cat, Name, app.Vietnamese)
}

// A Vietnamese player plays in Vietnamese: Gemini is told the player's
// language and answers in it, and the game reads its answers; the replies,
// a refusal and the record are Vietnamese.
func TestAVietnameseUserPlaysTwentyQuestionsInVietnamese(t *testing.T) {
	thingsBefore := things
	things = []string{"a cat"}
	t.Cleanup(func() { things = thingsBefore })
	b, f, _ := setup(t, nil)
	b.Speaks(apptest.User, "vi")
	start := "Mình đang nghĩ về một thứ. Bạn hãy hỏi các câu có/không (tối đa 20 câu), hoặc đoán luôn: cứ gõ câu hỏi (trong nhóm thì trả lời vào tin nhắn của mình) hoặc gửi /twentyq <câu hỏi>."
	b.Converse(apptest.PrivateChat, apptest.User, []apptest.Step{
		{"/twentyq_stats", "Ở đây chưa có ván nào kết thúc."},
		{"/twentyq_giveup", "Chưa có ván hai mươi câu hỏi nào đang chơi. Gửi /twentyq để bắt đầu."},
		{"/twentyq", start},
		{"/twentyq " + strings.Repeat("ư", 201), "Câu hỏi cần ngắn hơn 200 ký tự."},
		{"nó là động vật à?", "1/20 nó là động vật à?: Có"},
		{"nó có bay được không?", "2/20 nó có bay được không?: Không"},
		{"có phải con mèo không?", "3/20 có phải con mèo không?: Đoán đúng\nBạn đoán trúng sau 3 câu: con mèo!"},
		{"/twentyq_stats", "Đã chơi 1, thắng 1; trung bình 3,0 câu hỏi mỗi lần thắng."},
	})
	system := f.requests[0].SystemInstruction.Parts[0].Text
	for _, want := range []string{"The secret is: a cat.", "In Vietnamese it is: con mèo.", "in Vietnamese", "Có, Không, Đôi khi or Không rõ", "Đoán đúng"} {
		if !strings.Contains(system, want) {
			t.Errorf("the prompt %q does not say %q", system, want)
		}
	}
	f.fail = []int{429}
	b.Expect(apptest.PrivateChat, apptest.User, "/twentyq nó to không?", "Gemini đang bận; câu hỏi của bạn không bị tính. Thử lại sau một phút nhé.")
}

// An English player's prompt names English and its words.
func TestAnEnglishPlayersPromptAsksForEnglish(t *testing.T) {
	b, f, _ := setup(t, nil)
	b.MustSay(apptest.Group, apptest.User, "/twentyq is it blue?")
	system := f.requests[0].SystemInstruction.Parts[0].Text
	for _, want := range []string{"in English", "Yes, No, Sometimes or Unknown", "or Correct if"} {
		if !strings.Contains(system, want) {
			t.Errorf("the prompt %q does not say %q", system, want)
		}
	}
}

// Gemini is told every language the bot speaks by its name.
func TestEveryLanguageHasANameForGemini(t *testing.T) {
	for _, l := range locale.Langs {
		if languageNames[l] == "" {
			t.Errorf("no name for %s", l)
		}
	}
}

// Every thing the bot may think of has its name in each language, and
// English names it as the list does.
func TestEveryThingHasANameInEveryLanguage(t *testing.T) {
	cat := locale.NewCatalog(locale.Source{Namespace: Name, FS: games.Texts(texts)})
	for _, th := range things {
		for _, l := range locale.Langs {
			if !cat.Has(l, Name+"."+thingKey(th)) {
				t.Errorf("%q has no name in %s (%s)", th, l, thingKey(th))
			}
		}
		if got := app.NewWords(cat, Name, app.English).T(thingKey(th)); got != th {
			t.Errorf("%q reads %q in English", th, got)
		}
	}
}
