package games_test

import (
	"errors"
	"io"
	"io/fs"
	"slices"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/games"
)

// A game module's catalog is its own files with the shared flow's words
// under "games.", in both languages alike; the module's own keys stay
// where its file put them.
func TestAGamesCatalogHoldsItsOwnAndTheSharedWordsAlike(t *testing.T) {
	cat := games.SampleCatalog()
	if err := cat.Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range cat.Check() {
		t.Error(p)
	}
	for _, lang := range []app.Lang{app.English, app.Vietnamese} {
		keys := cat.Keys(lang)
		for _, k := range []string{"wordle.game", "wordle.cmd.wordle", "wordle.games.give_up", "wordle.games.summary"} {
			if !slices.Contains(keys, k) {
				t.Errorf("%s lacks %s: %v", lang, k, keys)
			}
		}
	}
}

// The toasts' English constants are the catalog's English words; a
// Vietnamese presser reads Vietnamese.
func TestTheSharedToastsReadInThePressersLanguage(t *testing.T) {
	en, vi := games.WordsIn(app.English), games.WordsIn(app.Vietnamese)
	for key, english := range map[string]string{"games.stale": games.StaleToast, "games.not_yours": games.NotYoursToast} {
		if got := en.T(key); got != english {
			t.Errorf("%s in English = %q, want %q", key, got, english)
		}
		if got := vi.T(key); got == english || got == key {
			t.Errorf("%s in Vietnamese = %q", key, got)
		}
	}
	if got, want := vi.T("games.none_running", app.Args{"Game": vi.T("game"), "Command": "wordle"}), "Chưa có ván Wordle nào đang chơi. Gửi /wordle để bắt đầu."; got != want {
		t.Errorf("none running in Vietnamese = %q, want %q", got, want)
	}
}

// Opened rather than read whole, a joined file is the same bytes.
func TestAJoinedFileOpensAsItReads(t *testing.T) {
	fsys := games.Texts(games.SampleTexts)
	whole, err := fs.ReadFile(fsys, "locales/vi.toml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := fsys.Open("locales/vi.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opened, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil || string(opened) != string(whole) || st.Size() != int64(len(whole)) || st.Name() != "vi.toml" {
		t.Fatalf("opened %d bytes (%v, %v), read %d", len(opened), st, err, len(whole))
	}
	if _, err := fsys.Open("locales/fr.toml"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file neither has: %v", err)
	}
}
