package stats

import (
	"encoding/json"
	"slices"
	"strconv"
)

// appendTally encodes v exactly as json.Marshal does (keys sorted, the
// same escaping), without reflection: counting is every command's hook
// (docs/performance.md has what the reflection cost there).
// TestTallyEncodingIsJSONMarshals holds the two together.
func appendTally(b []byte, v tally) []byte {
	b = append(b, '{')
	if v.Name != "" {
		b = append(b, `"name":`...)
		b = appendJSONString(b, v.Name)
		b = append(b, ',')
	}
	b = append(b, `"cmds":`...)
	if v.Cmds == nil {
		return append(b, "null}"...)
	}
	b = append(b, '{')
	keys := make([]string, 0, len(v.Cmds))
	for k := range v.Cmds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = strconv.AppendInt(b, v.Cmds[k], 10)
	}
	return append(b, "}}"...)
}

// appendJSONString appends s quoted; only a string with a character JSON
// (or json.Marshal's HTML-safe escaping) would escape goes through
// encoding/json. Command names and usernames never do.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
