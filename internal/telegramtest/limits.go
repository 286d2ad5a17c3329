package telegramtest

import (
	"encoding/json"
	"html"
	"math"
	"regexp"
	"time"

	"github.com/go-telegram/bot/models"
	"golang.org/x/time/rate"
)

// Telegram's limits (https://core.telegram.org/bots/faq and /bots/api):
// about 30 messages a second overall, 20 a minute to one group, callback
// data of 1-64 bytes, texts of 1-4096 characters after entity parsing,
// 1-100 updates a getUpdates. The per-message ones are always enforced;
// the rates only with WithRateLimit, WithGroupLimit or WithTelegramLimits,
// so tests of other concerns can send as fast as they like.
const (
	maxCallbackData = 64
	maxTextUnits    = 4096
)

// WithClock replaces the clock the fake's limits and call records read
// (tests that move time themselves instead of sleeping).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithRateLimit makes sending methods answer 429 past perSecond messages a
// second overall (a token bucket, like Telegram's "about 30 per second").
func WithRateLimit(perSecond int) Option {
	return func(s *Server) { s.limiter = rate.NewLimiter(rate.Limit(perSecond), perSecond) }
}

// WithGroupLimit makes sendMessage to a group (a negative chat id) answer
// 429 when it would be the (perMinute+1)-th in the last minute, with the
// retry_after that frees a place: a rolling window, as Telegram counts.
func WithGroupLimit(perMinute int) Option { return func(s *Server) { s.groupLimit = perMinute } }

// WithTelegramLimits enforces Telegram's documented rates: 30 messages a
// second overall, 20 a minute per group.
func WithTelegramLimits() Option {
	return func(s *Server) { WithRateLimit(30)(s); WithGroupLimit(20)(s) }
}

// Limited counts the 429 answers the rate limits gave.
func (s *Server) Limited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limited
}

// overLimit answers 429 when a rate limit refuses this send, and counts
// it when none does; the caller holds s.mu, so concurrent sends cannot all
// pass.
func (s *Server) overLimit(method string, chat int64) (Failure, bool) {
	now := s.now()
	toGroup := s.groupLimit > 0 && method == "sendMessage" && chat < 0
	if toGroup {
		sent := s.groupSent[chat]
		for len(sent) > 0 && !sent[0].Add(time.Minute).After(now) {
			sent = sent[1:]
		}
		s.groupSent[chat] = sent
		if len(sent) >= s.groupLimit {
			s.limited++
			return tooMany(seconds(sent[len(sent)-s.groupLimit].Add(time.Minute).Sub(now))), true
		}
	}
	if s.limiter != nil {
		res := s.limiter.ReserveN(now, 1)
		if d := res.DelayFrom(now); d > 0 {
			res.CancelAt(now)
			s.limited++
			return tooMany(seconds(d)), true
		}
	}
	if toGroup {
		s.groupSent[chat] = append(s.groupSent[chat], now)
	}
	return Failure{}, false
}

func seconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// badMarkup is why Telegram refuses a reply_markup, or "": a callback_data
// of more than 64 bytes is BUTTON_DATA_INVALID.
func badMarkup(markup string) string {
	var kb models.InlineKeyboardMarkup
	if json.Unmarshal([]byte(markup), &kb) != nil {
		return "" // not an inline keyboard: nothing of it is checked here
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if len(b.CallbackData) > maxCallbackData {
				return "BUTTON_DATA_INVALID"
			}
		}
	}
	return ""
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// textUnits is a text's length as Telegram limits it: UTF-16 code units
// after entity parsing (for HTML, without its tags and escapes).
func textUnits(text, parseMode string) int {
	if parseMode == string(models.ParseModeHTML) {
		text = html.UnescapeString(htmlTag.ReplaceAllString(text, ""))
	}
	return utf16Len(text)
}
