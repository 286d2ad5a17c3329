package initdata_test

import (
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// sampleTime is the recorded sample's auth_date.
var sampleTime = time.Unix(1733509682, 0)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestRecordedSampleValidatesAsTelegramSigned(t *testing.T) {
	raw, token := readFile(t, "sample.txt"), readFile(t, "sample.token")
	d, err := initdata.New(token, at(sampleTime.Add(time.Hour))).Validate(raw)
	if err != nil {
		t.Fatalf("the recorded sample is refused: %v", err)
	}
	if d.User.ID != 279058397 || d.User.Username != "vdkfrost" || d.User.FirstName != "Vladislav + - ? /" || d.ChatType != "private" {
		t.Errorf("read %+v", d)
	}
	if !d.AuthDate.Equal(sampleTime) {
		t.Errorf("auth date %v, want %v", d.AuthDate, sampleTime)
	}
}

func TestRefusals(t *testing.T) {
	raw, token := readFile(t, "sample.txt"), readFile(t, "sample.token")
	// One byte of the user's name changed, in its encoded form.
	altered := strings.Replace(raw, "Kibenko", "Kibenkp", 1)
	withoutHash := raw[:strings.Index(raw, "&hash=")]
	otherHash := raw[:len(raw)-1] + "4"
	for _, tc := range []struct {
		name  string
		raw   string
		token string
		now   time.Time
		want  error
	}{
		{"empty is missing", "", token, sampleTime, initdata.ErrMissing},
		{"one byte altered fails the signature", altered, token, sampleTime, initdata.ErrHash},
		{"another bot's token fails the signature", raw, "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J5", sampleTime, initdata.ErrHash},
		{"a hash one digit off fails the signature", otherHash, token, sampleTime, initdata.ErrHash},
		{"no hash is no initData", withoutHash, token, sampleTime, initdata.ErrFormat},
		{"two hashes are no initData", raw + "&hash=00", token, sampleTime, initdata.ErrFormat},
		{"a hash that is not hex fails the signature", withoutHash + "&hash=zz", token, sampleTime, initdata.ErrHash},
		{"older than 24 hours is stale", raw, token, sampleTime.Add(initdata.MaxAge + time.Second), initdata.ErrStale},
		{"not a query string", "%zz", token, sampleTime, initdata.ErrFormat},
		{"signed a year ahead of the clock is from the future", raw, token, sampleTime.AddDate(-1, 0, 0), initdata.ErrFuture},
		{"signed centuries ahead of the clock is from the future", raw, token, time.Unix(0, 0), initdata.ErrFuture},
		{"signed just past the allowed skew is from the future", raw, token, sampleTime.Add(-initdata.MaxSkew - time.Second), initdata.ErrFuture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := initdata.New(tc.token, at(tc.now)).Validate(tc.raw)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err != nil && (strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "vdkfrost")) {
				t.Errorf("the error quotes its input: %v", err)
			}
		})
	}
}

func TestExactly24HoursOldIsAccepted(t *testing.T) {
	raw, token := readFile(t, "sample.txt"), readFile(t, "sample.token")
	if _, err := initdata.New(token, at(sampleTime.Add(initdata.MaxAge))).Validate(raw); err != nil {
		t.Fatal(err)
	}
}

// TestAClockBehindTelegramsByLessThanTheSkewIsAccepted: our clock and
// Telegram's may differ a little, and a page opened just now still opens.
func TestAClockBehindTelegramsByLessThanTheSkewIsAccepted(t *testing.T) {
	raw, token := readFile(t, "sample.txt"), readFile(t, "sample.token")
	if _, err := initdata.New(token, at(sampleTime.Add(-initdata.MaxSkew))).Validate(raw); err != nil {
		t.Fatal(err)
	}
}

func TestSignMakesWhatValidateAccepts(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		vals url.Values
		want error
	}{
		{"a user with a start parameter", url.Values{"auth_date": {"1796299200"}, "user": {`{"id":42,"first_name":"Ann"}`}, "start_param": {"-100123"}}, nil},
		{"keys sort by key, not by line", url.Values{"auth_date": {"1796299200"}, "user": {`{"id":42,"first_name":"Ann"}`}, "a": {"1"}, "a-b": {"2"}}, nil},
		{"no user is no initData", url.Values{"auth_date": {"1796299200"}}, initdata.ErrFormat},
		{"user id 0 is no initData", url.Values{"auth_date": {"1796299200"}, "user": {`{"first_name":"Ann"}`}}, initdata.ErrFormat},
		{"no auth_date is no initData", url.Values{"user": {`{"id":42}`}}, initdata.ErrFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := initdata.New("1:test", at(now)).Validate(initdata.Sign("1:test", tc.vals))
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err == nil && (d.User.ID != 42 || d.StartParam != tc.vals.Get("start_param")) {
				t.Errorf("read %+v", d)
			}
		})
	}
}

func TestCheckStringSortsByKey(t *testing.T) {
	got := initdata.CheckString(url.Values{"b": {"2"}, "a-b": {"3"}, "a": {"1"}, "hash": {"x"}})
	if want := "a=1\na-b=3\nb=2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
