package config_test

import "testing"

// The bot's id is the token's part before the colon, which is no secret;
// without a token it is 0.
func TestTheBotIDIsTheTokensPartBeforeTheColon(t *testing.T) {
	for _, c := range []struct {
		token string
		want  int64
	}{
		{"123456:ABC-def_1", 123456},
		{"", 0},
	} {
		cfg, err := load(t, map[string]string{"TELEGRAM_BOT_TOKEN": c.token})
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.BotID(); got != c.want {
			t.Errorf("BotID of %q = %d, want %d", c.token, got, c.want)
		}
	}
}
