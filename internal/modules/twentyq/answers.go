package twentyq

import (
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// answers are the game's answers as stored with each question; the
// player reads each as the text "answer.<lower case>" in their language,
// and Gemini is asked to answer with those words.
var answers = []string{"Yes", "No", "Sometimes", "Unknown", "Correct"}

// languageNames name the player's language to Gemini.
var languageNames = map[app.Lang]string{app.English: "English", app.Vietnamese: "Vietnamese"}

// system tells Gemini the rules and the secret (and its name in the
// player's language), and to answer in that language (w's) with its answer
// words.
func system(secret string, w app.Words) string {
	say := func(answer string) string { return w.T("answer." + strings.ToLower(answer)) }
	lang := languageNames[w.Lang]
	named := ""
	if s := secretIn(w, secret); s != secret {
		named = "In " + lang + " it is: " + s + ". "
	}
	return "You are the host of a game of twenty questions. The secret is: " + secret + ". " + named +
		"The player asks one yes/no question or makes a guess, in " + lang + ". Reply in " + lang + " with exactly one of: " +
		say("Yes") + ", " + say("No") + ", " + say("Sometimes") + " or " + say("Unknown") + "; or " + say("Correct") +
		" if the player has named the secret (synonyms and translations count). " +
		"Never reveal the secret and never add anything else."
}

// normalize maps Gemini's reply onto the game's answers: it begins with
// an answer's words in w's language or in English (the longest such
// answer wins: "Không rõ" is Unknown, not No).
func normalize(reply string, w app.Words) (string, bool) {
	words := strings.Fields(strings.ToLower(reply))
	for i, f := range words {
		words[i] = strings.Trim(f, ".!?,;:\"'*")
	}
	best, bestLen := "", 0
	for _, lang := range []app.Words{w, w.In(app.English)} {
		for _, a := range answers {
			said := strings.Fields(strings.ToLower(lang.T("answer." + strings.ToLower(a))))
			if len(said) > bestLen && len(said) <= len(words) && slices.Equal(words[:len(said)], said) {
				best, bestLen = a, len(said)
			}
		}
	}
	return best, best != ""
}
