package locale

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	// Zone names resolve the same on every runtime, whatever zoneinfo its
	// image carries.
	_ "time/tzdata"
)

// Vietnam is the clock the bot's users read unless a chat chose another:
// UTC+7 all year, no daylight saving.
var Vietnam = time.FixedZone("ICT", 7*3600)

// VietnamZone is Vietnam's zone name, a chat's zone when it chose none.
const VietnamZone = "Asia/Ho_Chi_Minh"

// ParseZone reads a zone a user types: an IANA name in any case
// (Asia/Tokyo, europe/berlin), UTC, or an offset from UTC (UTC+7, GMT-5,
// +05:30). name is what to keep (LoadZone reads it back).
func ParseZone(s string) (name string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "local") {
		return "", false
	}
	if off, ok := parseOffset(s); ok {
		return offsetName(off), true
	}
	for _, try := range []string{s, titleZone(s)} {
		if _, err := time.LoadLocation(try); err == nil {
			return try, true
		}
	}
	return "", false
}

// LoadZone is the zone name says (ParseZone's); Vietnam for "" or a name
// no longer known.
func LoadZone(name string) *time.Location {
	switch {
	case name == "" || name == VietnamZone:
		return Vietnam
	case strings.HasPrefix(name, "UTC") && len(name) > 3:
		if off, ok := parseOffset(name); ok {
			return time.FixedZone(name, off)
		}
	default:
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return Vietnam
}

// parseOffset reads [UTC|GMT]±H[H][[:]MM] as seconds east of UTC, and a
// bare UTC or GMT as zero.
func parseOffset(s string) (int, bool) {
	u := strings.ToUpper(s)
	if u == "UTC" || u == "GMT" || u == "Z" {
		return 0, true
	}
	u = strings.TrimPrefix(strings.TrimPrefix(u, "UTC"), "GMT")
	if len(u) < 2 || (u[0] != '+' && u[0] != '-') {
		return 0, false
	}
	sign, rest := 1, u[1:]
	if u[0] == '-' {
		sign = -1
	}
	hh, mm, colon := rest, "0", strings.Contains(rest, ":")
	switch {
	case colon:
		hh, mm, _ = strings.Cut(rest, ":")
	case len(rest) == 4:
		hh, mm = rest[:2], rest[2:]
	}
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if err1 != nil || err2 != nil || len(hh) > 2 || h > 14 || m < 0 || m >= 60 || h < 0 || (h == 14 && m > 0) || (colon && len(mm) != 2) {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

func offsetName(off int) string {
	if off == 0 {
		return "UTC"
	}
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, off/3600, off%3600/60)
}

// titleZone writes an IANA name as the database spells most: each word
// capitalised (asia/ho_chi_minh: Asia/Ho_Chi_Minh).
func titleZone(s string) string {
	b := []byte(strings.ToLower(s))
	for i := range b {
		if i == 0 || strings.ContainsRune("/_-", rune(b[i-1])) {
			b[i] = strings.ToUpper(string(b[i]))[0]
		}
	}
	return string(b)
}

// ZoneLabel names loc for a reader, with its offset from UTC at t:
// "Asia/Tokyo (UTC+09:00)", "Asia/Ho_Chi_Minh (UTC+07:00)".
func ZoneLabel(loc *time.Location, t time.Time) string {
	name := loc.String()
	if loc == Vietnam {
		name = VietnamZone
	}
	_, off := t.In(loc).Zone()
	if o := offsetName(off); o != name {
		return name + " (" + o + ")"
	}
	return name
}
