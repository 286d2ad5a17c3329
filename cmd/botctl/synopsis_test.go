package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// Every flag a sub-command takes is in its synopsis, which botctl's whole
// usage and the package comment show: an operator reads those, not -h.
func TestEverySynopsisNamesEveryFlagOfItsCommand(t *testing.T) {
	env, _ := sandbox(t)
	flagLine := regexp.MustCompile(`(?m)^  (-[a-z-]+)`)
	for _, c := range subcommands {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_ = run(t.Context(), append(strings.Fields(c.name), "-h"), func(k string) string { return env[k] }, &out, &bytes.Buffer{})
			for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
				if !regexp.MustCompile(`(^|[\[ ])` + m[1] + `([\] ]|$)`).MatchString(synopsis(c.name)) {
					t.Errorf("the synopsis %q lacks %s", synopsis(c.name), m[1])
				}
			}
		})
	}
}
