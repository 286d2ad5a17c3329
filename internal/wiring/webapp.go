package wiring

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/webapp"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

// miniApp is the Mini App's handler, its initData checked against the
// bot's token; in console mode, where there is none, against a token made
// for this run, so the console's test link is the only way in. now is the
// bot's clock: auth_date and each user's rate are held to it.
func (b *Bot) miniApp(console bool, now func() time.Time) http.Handler {
	b.appToken, b.now = b.Config.TelegramToken.Reveal(), now
	if b.appToken == "" && console {
		key := make([]byte, 24)
		_, _ = rand.Read(key) // crypto/rand.Read never fails
		b.appToken = "console:" + hex.EncodeToString(key)
	}
	return webapp.New(webapp.Config{Token: b.appToken, Routes: b.App.Registry().WebRoutes(), Log: b.Log, Now: now, Lang: b.App.UserLang, Zone: b.App.UserZone})
}

// MiniAppTestLink is a link to the Mini App at base (http://localhost:8080)
// signed for user as Telegram would sign it at the bot's clock's now,
// valid for a day: the page reads initData from the link's fragment as
// Telegram's clients pass it.
func (b *Bot) MiniAppTestLink(base string, user int64, name string) string {
	u, _ := json.Marshal(initdata.User{ID: user, FirstName: name}) // plain fields: cannot fail
	vals := url.Values{"auth_date": {strconv.FormatInt(b.now().Unix(), 10)}, "user": {string(u)}}
	return base + "/app/#tgWebAppData=" + url.QueryEscape(initdata.Sign(b.appToken, vals))
}

// AppURL is the Mini App's public URL: APP_URL (or what the webhook's
// URL implies), else the address a webhook was first answered at; "" until
// then.
func (b *Bot) AppURL() string {
	s, _ := b.appURL.Load().(string)
	return s
}

// learnAppURL learns the Mini App's address from the first webhook that
// carries the webhook's secret, when the configuration gave none: on
// Lambda the Function URL, which the function cannot name in its own
// configuration. Only Telegram knows the secret, and calls the domain
// it was given; that request's own commands already see the address.
func (b *Bot) learnAppURL(h http.Handler) http.Handler {
	secret := b.Config.WebhookSecret.Reveal()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if secret != "" && r.Method == http.MethodPost && r.URL.Path == "/webhook" && b.AppURL() == "" &&
			subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Telegram-Bot-Api-Secret-Token")), []byte(secret)) == 1 &&
			r.Host != "" && !strings.ContainsAny(r.Host, "/?#@ ") {
			b.appURL.CompareAndSwap("", "https://"+r.Host+"/app/")
		}
		h.ServeHTTP(w, r)
	})
}
