package remind

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
)

func TestParseReadsEachFormAndRefusesWhatItCannotKeep(t *testing.T) {
	now := time.Date(2027, 1, 30, 3, 0, 0, 0, time.UTC) // 10:00 in Vietnam
	cases := []struct {
		name, args string
		at         time.Time
		text       string
		err        error
	}{
		{"minutes are a delay", "10m stretch", now.Add(10 * time.Minute), "stretch", nil},
		{"hours are a delay", "2h call mum", now.Add(2 * time.Hour), "call mum", nil},
		{"days are a delay", "1d water plants", now.Add(24 * time.Hour), "water plants", nil},
		{"units combine", "1h30m tea", now.Add(90 * time.Minute), "tea", nil},
		{"units read in any case", "2H tea", now.Add(2 * time.Hour), "tea", nil},
		{"at a clock time later today is today in Vietnam", "at 11:30 lunch", time.Date(2027, 1, 30, 11, 30, 0, 0, locale.Vietnam), "lunch", nil},
		{"at a clock time passed today is tomorrow", "at 08:00 stand-up", time.Date(2027, 1, 31, 8, 0, 0, 0, locale.Vietnam), "stand-up", nil},
		{"at a date and time is Vietnam time", "at 2027-01-31 09:00 pay rent", time.Date(2027, 1, 31, 9, 0, 0, 0, locale.Vietnam), "pay rent", nil},
		{"the text keeps its inner spacing and lines", "5m a  b\nc", now.Add(5 * time.Minute), "a  b\nc", nil},
		{"Vietnamese minutes are a delay", "10 phút giãn cơ", now.Add(10 * time.Minute), "giãn cơ", nil},
		{"Vietnamese hours are a delay", "2 giờ gọi mẹ", now.Add(2 * time.Hour), "gọi mẹ", nil},
		{"tiếng is an hour too", "1 tiếng nấu cơm", now.Add(time.Hour), "nấu cơm", nil},
		{"Vietnamese days are a delay", "1 ngày tưới cây", now.Add(24 * time.Hour), "tưới cây", nil},
		{"Vietnamese seconds are a delay", "30 giây trà", now.Add(30 * time.Second), "trà", nil},
		{"Vietnamese units read without diacritics and in any case", "10 PHUT tra", now.Add(10 * time.Minute), "tra", nil},
		{"a Vietnamese delay keeps the bounds", "367 ngày hi", time.Time{}, "", errTooFar},
		{"a Vietnamese unit with no text is refused", "10 phút", time.Time{}, "", errNoText},
		{"a number with no unit is unreadable", "10 hi", time.Time{}, "", errBadWhen},
		{"lúc is at", "lúc 11:30 ăn trưa", time.Date(2027, 1, 30, 11, 30, 0, 0, locale.Vietnam), "ăn trưa", nil},
		{"lúc takes a date too, and reads without diacritics", "Luc 2027-01-31 09:00 trả tiền nhà", time.Date(2027, 1, 31, 9, 0, 0, 0, locale.Vietnam), "trả tiền nhà", nil},
		{"nothing at all asks for when and what", "", time.Time{}, "", errNoWhen},
		{"no text is refused", "10m", time.Time{}, "", errNoText},
		{"no text after a date is refused", "at 2027-01-31 09:00", time.Time{}, "", errNoText},
		{"an unknown unit is unreadable", "10w hi", time.Time{}, "", errBadWhen},
		{"seconds are a delay", "30s stretch", now.Add(30 * time.Second), "stretch", nil},
		{"ten seconds is the shortest delay", "10s tea", now.Add(10 * time.Second), "tea", nil},
		{"under ten seconds is too early", "9s hi", time.Time{}, "", errTooEarly},
		{"seconds combine with minutes", "1m30s tea", now.Add(90 * time.Second), "tea", nil},
		{"a word for a time is unreadable", "tomorrow hi", time.Time{}, "", errBadWhen},
		{"at with no time is unreadable", "at", time.Time{}, "", errBadWhen},
		{"an impossible clock time is unreadable", "at 25:00 hi", time.Time{}, "", errBadWhen},
		{"a date in the past is refused", "at 2026-01-31 09:00 hi", time.Time{}, "", errPast},
		{"a zero delay is in the past", "0m hi", time.Time{}, "", errPast},
		{"over a year away is refused", "367d hi", time.Time{}, "", errTooFar},
		{"a date over a year away is refused", "at 2028-03-01 09:00 hi", time.Time{}, "", errTooFar},
		{"the longest delay is kept", "366d hi", now.Add(366 * 24 * time.Hour), "hi", nil},
		{"days past what a duration holds are too far, not wrapped around", "213504d hi", time.Time{}, "", errTooFar},
		{"the most days six digits write are too far", "999999d hi", time.Time{}, "", errTooFar},
		{"hours past the bound are too far", "8785h hi", time.Time{}, "", errTooFar},
		{"minutes past the bound are too far", "527041m hi", time.Time{}, "", errTooFar},
		{"a sum past what a duration holds is too far", "999999h999999h999999h hi", time.Time{}, "", errTooFar},
		{"a sum of kept parts past the bound is too far", "200d200d hi", time.Time{}, "", errTooFar},
		{"the last date there is is too far", "at 9999-12-31 23:59 hi", time.Time{}, "", errTooFar},
		{"over 1000 characters is refused", "1h " + strings.Repeat("é", 1001), time.Time{}, "", errTooLong},
		{"exactly 1000 characters is kept", "1h " + strings.Repeat("é", 1000), now.Add(time.Hour), strings.Repeat("é", 1000), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at, text, err := parse(app.English, c.args, now, locale.Vietnam)
			if err != c.err {
				t.Fatalf("parse(%q) error = %v, want %v", c.args, err, c.err)
			}
			if c.err == nil && (!at.Equal(c.at) || text != c.text) {
				t.Errorf("parse(%q) = %v %q, want %v %q", c.args, at, text, c.at, c.text)
			}
		})
	}
}

// A reader of either language types a time as they would say it: the
// phrases around a delay ("in", "sau", "nữa"), a day ("tomorrow", "ngày
// mai", "mai"), a part of the day ("7pm", "7 giờ tối") and the ways each
// writes a clock (19:30, 19h30, 8 giờ 30). A bare number and unit stays a
// delay, as it always was ("2h", "2 giờ"): only a word that says a clock
// time (at, lúc, a day, a part of the day) makes it one.
func TestParseReadsTheTimesAReaderOfEitherLanguageTypes(t *testing.T) {
	now := time.Date(2027, 1, 30, 3, 0, 0, 0, time.UTC) // Saturday 10:00 in Vietnam
	today := func(h, m int) time.Time { return time.Date(2027, 1, 30, h, m, 0, 0, locale.Vietnam) }
	tomorrow := func(h, m int) time.Time { return time.Date(2027, 1, 31, h, m, 0, 0, locale.Vietnam) }
	cases := []struct {
		args string
		at   time.Time
		text string
		err  error
	}{
		{"in 10 minutes tea", now.Add(10 * time.Minute), "tea", nil},
		{"in 2 hours call mum", now.Add(2 * time.Hour), "call mum", nil},
		{"10 minutes tea", now.Add(10 * time.Minute), "tea", nil},
		{"in 1 hour 30 minutes tea", now.Add(90 * time.Minute), "tea", nil},
		{"in an hour tea", now.Add(time.Hour), "tea", nil},
		{"in a minute tea", now.Add(time.Minute), "tea", nil},
		{"in half an hour tea", now.Add(30 * time.Minute), "tea", nil},
		{"in 10m tea", now.Add(10 * time.Minute), "tea", nil},
		{"in 5 mins tea", now.Add(5 * time.Minute), "tea", nil},
		{"in 3 days water plants", now.Add(72 * time.Hour), "water plants", nil},
		{"tomorrow at 8:00 stand-up", tomorrow(8, 0), "stand-up", nil},
		{"tomorrow 8am stand-up", tomorrow(8, 0), "stand-up", nil},
		{"at 7pm dinner", today(19, 0), "dinner", nil},
		{"at 7:30 pm dinner", today(19, 30), "dinner", nil},
		{"at 12am bed", tomorrow(0, 0), "bed", nil},
		{"at 12pm lunch", today(12, 0), "lunch", nil},
		{"tonight at 8 movie", today(20, 0), "movie", nil},
		{"at 8 tea", tomorrow(8, 0), "tea", nil},
		{"19:30 dinner", today(19, 30), "dinner", nil},
		{"today at 19:30 dinner", today(19, 30), "dinner", nil},
		{"today at 09:00 hi", time.Time{}, "", errPast},
		{"on 31/01 at 9:00 pay rent", tomorrow(9, 0), "pay rent", nil},
		{"at 31/01/2027 09:00 pay rent", tomorrow(9, 0), "pay rent", nil},
		{"sau 10 phút giãn cơ", now.Add(10 * time.Minute), "giãn cơ", nil},
		{"10 phút nữa giãn cơ", now.Add(10 * time.Minute), "giãn cơ", nil},
		{"sau 10 phút nữa giãn cơ", now.Add(10 * time.Minute), "giãn cơ", nil},
		{"sau 1 tiếng 30 phút nấu cơm", now.Add(90 * time.Minute), "nấu cơm", nil},
		{"nửa tiếng nữa tắt bếp", now.Add(30 * time.Minute), "tắt bếp", nil},
		{"2 tiếng rưỡi nữa đón con", now.Add(150 * time.Minute), "đón con", nil},
		{"10p nữa trà", now.Add(10 * time.Minute), "trà", nil},
		{"10 phut nua tra", now.Add(10 * time.Minute), "tra", nil},
		{"lúc 19:30 ăn tối", today(19, 30), "ăn tối", nil},
		{"lúc 19h30 ăn tối", today(19, 30), "ăn tối", nil},
		{"lúc 19h ăn tối", today(19, 0), "ăn tối", nil},
		{"lúc 7h tối ăn tối", today(19, 0), "ăn tối", nil},
		{"7 giờ tối xem phim", today(19, 0), "xem phim", nil},
		{"2 giờ chiều gọi mẹ", today(14, 0), "gọi mẹ", nil},
		{"12 giờ trưa ăn trưa", today(12, 0), "ăn trưa", nil},
		{"11 giờ đêm đi ngủ", today(23, 0), "đi ngủ", nil},
		{"ngày mai 8h họp", tomorrow(8, 0), "họp", nil},
		{"ngày mai lúc 8h họp", tomorrow(8, 0), "họp", nil},
		{"8h sáng mai họp", tomorrow(8, 0), "họp", nil},
		{"mai lúc 8 giờ 30 họp", tomorrow(8, 30), "họp", nil},
		{"mai 8h30 họp", tomorrow(8, 30), "họp", nil},
		{"tối nay 8h xem phim", today(20, 0), "xem phim", nil},
		{"lúc 8 giờ rưỡi ăn sáng", tomorrow(8, 30), "ăn sáng", nil},
		{"ngày 31/01 lúc 9h trả tiền nhà", tomorrow(9, 0), "trả tiền nhà", nil},
		{"lúc 9h ngày 31/01/2027 trả tiền nhà", tomorrow(9, 0), "trả tiền nhà", nil},
		{"ngày kia lúc 9h đi khám", time.Date(2027, 2, 1, 9, 0, 0, 0, locale.Vietnam), "đi khám", nil},
		{"hôm nay lúc 9h họp", time.Time{}, "", errPast},
		{"lúc 8h tôi đi học", tomorrow(8, 0), "tôi đi học", nil},
		{"mai đi chợ", time.Time{}, "", errBadWhen},
		{"lúc 25h đi ngủ", time.Time{}, "", errBadWhen},
		{"8h tea", now.Add(8 * time.Hour), "tea", nil},
		{"2 giờ gọi mẹ", now.Add(2 * time.Hour), "gọi mẹ", nil},
		{"ngày mai 8h", time.Time{}, "", errNoText},
		{"in 10 minutes", time.Time{}, "", errNoText},
		{"1h later", now.Add(time.Hour), "later", nil},
		{"2h second", now.Add(2 * time.Hour), "second", nil},
		{"1 hour 1.5 minutes x", now.Add(time.Hour + 90*time.Second), "x", nil},
		{"10m 2 days left", now.Add(10 * time.Minute), "2 days left", nil},
		{"in 10m an hour of piano", now.Add(10 * time.Minute), "an hour of piano", nil},
		{"2 hours 3 days to go", now.Add(2 * time.Hour), "3 days to go", nil},
		{"in 10 minutes a minute of calm", now.Add(10 * time.Minute), "a minute of calm", nil},
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			at, text, err := parse(app.Vietnamese, c.args, now, locale.Vietnam)
			if err != c.err {
				t.Fatalf("parse(%q) error = %v, want %v", c.args, err, c.err)
			}
			if c.err == nil && (!at.Equal(c.at) || text != c.text) {
				t.Errorf("parse(%q) = %v %q, want %v %q", c.args, at, text, c.at, c.text)
			}
		})
	}
}

// A clock time is read on the reader's clock: "at 19:30" in Berlin is
// 19:30 there, a date is that day's midnight there, a delay is a delay
// wherever it is typed.
func TestATypedTimeIsReadOnTheReadersClock(t *testing.T) {
	now := time.Date(2027, 1, 30, 3, 0, 0, 0, time.UTC) // 04:00 in Berlin, 10:00 in Vietnam
	berlin := locale.LoadZone("Europe/Berlin")
	tokyo := locale.LoadZone("UTC+09:00")
	for _, c := range []struct {
		name, args string
		zone       *time.Location
		want       time.Time
	}{
		{"a clock time later today there", "at 19:30 call", berlin, time.Date(2027, 1, 30, 18, 30, 0, 0, time.UTC)},
		{"a clock time already past there is tomorrow's", "at 9:00 call", tokyo, time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC)},
		{"a date at a time there", "on 01/02 at 8:00 call", berlin, time.Date(2027, 2, 1, 7, 0, 0, 0, time.UTC)},
		{"a delay is the same anywhere", "10m call", tokyo, now.Add(10 * time.Minute)},
	} {
		t.Run(c.name, func(t *testing.T) {
			at, _, err := parse(app.English, c.args, now, c.zone)
			if err != nil || !at.Equal(c.want) {
				t.Fatalf("parse(%q) in %v = %v, %v; want %v", c.args, c.zone, at.UTC(), err, c.want)
			}
		})
	}
}

// A delay's number may have decimals, written as its writer's language
// writes them (locale.ParseDecimal): 1.5 hours, 1,5 tiếng; one that reads
// two ways is refused as any typed number is.
func TestParseReadsADelaysDecimalsAsItsWritersLanguageWritesThem(t *testing.T) {
	now := time.Date(2027, 1, 30, 3, 0, 0, 0, time.UTC)
	cases := []struct {
		lang app.Lang
		args string
		at   time.Time
		text string
		err  error
	}{
		{app.English, "1.5 hours tea", now.Add(90 * time.Minute), "tea", nil},
		{app.English, "in 1.5h tea", now.Add(90 * time.Minute), "tea", nil},
		{app.English, "0.5 minutes tea", now.Add(30 * time.Second), "tea", nil},
		{app.Vietnamese, "1,5 tiếng nữa nấu cơm", now.Add(90 * time.Minute), "nấu cơm", nil},
		{app.Vietnamese, "sau 1,5h nấu cơm", now.Add(90 * time.Minute), "nấu cơm", nil},
		{app.Vietnamese, "1.5 tiếng nấu cơm", now.Add(90 * time.Minute), "nấu cơm", nil},
		{app.Vietnamese, "1.500 phút x", time.Time{}, "", locale.ErrAmbiguous},
		{app.Vietnamese, "1,5 x", time.Time{}, "", errBadWhen},
		{app.English, "1,5 hours x", time.Time{}, "", errBadWhen},
		{app.English, "366.5 days x", time.Time{}, "", errTooFar},
		{app.English, "1e9 days x", time.Time{}, "", errTooFar},
		{app.English, "0.001 seconds x", time.Time{}, "", errTooEarly},
	}
	for _, c := range cases {
		t.Run(string(c.lang)+" "+c.args, func(t *testing.T) {
			at, text, err := parse(c.lang, c.args, now, locale.Vietnam)
			if !errors.Is(err, c.err) || c.err == nil && err != nil {
				t.Fatalf("parse(%q) error = %v, want %v", c.args, err, c.err)
			}
			if c.err == nil && (!at.Equal(c.at) || text != c.text) {
				t.Errorf("parse(%q) = %v %q, want %v %q", c.args, at, text, c.at, c.text)
			}
		})
	}
}
