// Package initdata checks a Telegram Mini App's initData the way Telegram
// specifies: the data-check-string (every field but hash, as key=value,
// sorted, joined by "\n") signed with HMAC-SHA256 under the key
// HMAC-SHA256("WebAppData", bot token), compared in constant time, and
// auth_date no older than MaxAge and no later than MaxSkew ahead. Only Validate's answer may be trusted;
// an error says why it failed, never what it was given.
package initdata

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxAge is how old an initData may be: Telegram's own advice for the
// data a page was opened with.
const MaxAge = 24 * time.Hour

// MaxSkew is how far ahead of our clock auth_date may be: Telegram's clock
// and ours differ by a little, never by a day. Past it the data was not
// signed at the time it says, and its age cannot be held to MaxAge.
const MaxSkew = 5 * time.Minute

// Why an initData is refused.
var (
	ErrMissing = errors.New("initdata: missing")
	ErrFormat  = errors.New("initdata: not a query string with hash, auth_date and user")
	ErrHash    = errors.New("initdata: signature does not match")
	ErrStale   = errors.New("initdata: older than allowed")
	ErrFuture  = errors.New("initdata: signed later than now")
)

// User is the Telegram user who opened the app, as initData's user field
// describes them.
type User struct {
	ID        int64  `json:"id"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name,omitempty"`
	Username  string `json:"username,omitempty"`
	Language  string `json:"language_code,omitempty"`
}

// Data is a validated initData.
type Data struct {
	User     User
	AuthDate time.Time
	// StartParam is the start_param of a link that opened the app (the
	// group it was opened from), as given: the user may have typed it.
	StartParam string
	ChatType   string
}

// Validator checks initData for one bot.
type Validator struct {
	secret []byte
	now    func() time.Time
	maxAge time.Duration
}

// New is a validator for the bot with token; now is the clock auth_date is
// held to (nil: time.Now).
func New(token string, now func() time.Time) *Validator {
	if now == nil {
		now = time.Now
	}
	return &Validator{secret: SecretKey(token), now: now, maxAge: MaxAge}
}

// SecretKey is HMAC-SHA256 of the bot token under the key "WebAppData".
func SecretKey(token string) []byte {
	m := hmac.New(sha256.New, []byte("WebAppData"))
	m.Write([]byte(token))
	return m.Sum(nil)
}

// Validate checks raw (the page's Telegram.WebApp.initData, as sent) and
// returns what it says.
func (v *Validator) Validate(raw string) (Data, error) {
	if raw == "" {
		return Data{}, ErrMissing
	}
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return Data{}, ErrFormat
	}
	hashes := vals["hash"]
	if len(hashes) != 1 {
		return Data{}, ErrFormat
	}
	got, err := hex.DecodeString(hashes[0])
	if err != nil {
		return Data{}, ErrHash
	}
	if !hmac.Equal(got, sign(v.secret, CheckString(vals))) {
		return Data{}, ErrHash
	}
	return v.read(vals)
}

// read takes the fields a signed initData carries.
func (v *Validator) read(vals url.Values) (Data, error) {
	secs, err := strconv.ParseInt(vals.Get("auth_date"), 10, 64)
	if err != nil {
		return Data{}, ErrFormat
	}
	at := time.Unix(secs, 0)
	// Sub saturates, so auth_date centuries away still compares right.
	age := v.now().Sub(at)
	if age > v.maxAge {
		return Data{}, fmt.Errorf("%w: %v old", ErrStale, age.Truncate(time.Second))
	}
	if age < -MaxSkew {
		return Data{}, fmt.Errorf("%w: %v ahead", ErrFuture, (-age).Truncate(time.Second))
	}
	var u User
	if err := json.Unmarshal([]byte(vals.Get("user")), &u); err != nil || u.ID == 0 {
		return Data{}, ErrFormat
	}
	return Data{User: u, AuthDate: at, StartParam: vals.Get("start_param"), ChatType: vals.Get("chat_type")}, nil
}

// CheckString is the data-check-string of vals: every field but hash,
// key=value, sorted, joined by "\n". A field given twice is no initData
// Telegram makes, and its every value is signed as given.
func CheckString(vals url.Values) string {
	keys := make([]string, 0, len(vals))
	for k := range vals {
		if k != "hash" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys) // by key, not by line: "a-b=" sorts before "a=", but key "a" before "a-b"
	lines := make([]string, 0, len(keys))
	for _, k := range keys {
		for _, v := range vals[k] {
			lines = append(lines, k+"="+v)
		}
	}
	return strings.Join(lines, "\n")
}

func sign(secret []byte, checkString string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(checkString))
	return m.Sum(nil)
}

// Sign is what Telegram does: vals signed for the bot with token, as a
// query string. Tests and the console's test link use it.
func Sign(token string, vals url.Values) string {
	out := url.Values{}
	for k, vs := range vals {
		if k != "hash" {
			out[k] = vs
		}
	}
	out.Set("hash", hex.EncodeToString(sign(SecretKey(token), CheckString(out))))
	return out.Encode()
}
