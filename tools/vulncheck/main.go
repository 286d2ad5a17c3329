// Command vulncheck reads govulncheck's JSON (-format json) on stdin and
// decides: a vulnerability the code calls in a module it requires fails the
// check (exit 1) with its id, module and fixed version; one in the Go
// standard library is reported but does not fail it, since its fix is a
// newer Go toolchain (named in the report), not a change to this module.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

type frame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
}

type message struct {
	Finding *struct {
		OSV          string  `json:"osv"`
		FixedVersion string  `json:"fixed_version"`
		Trace        []frame `json:"trace"`
	} `json:"finding"`
}

func main() {
	failed, report, err := check(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulncheck:", err)
		os.Exit(2)
	}
	for _, line := range report {
		fmt.Println(line)
	}
	if failed {
		os.Exit(1)
	}
}

// check reads the stream and returns whether it fails and what to print.
func check(r io.Reader) (bool, []string, error) {
	dec := json.NewDecoder(r)
	called := map[string]frame{} // osv id -> the vulnerable frame
	fixed := map[string]string{}
	for {
		var m message
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, nil, fmt.Errorf("not govulncheck JSON: %w", err)
		}
		if m.Finding == nil || len(m.Finding.Trace) == 0 || m.Finding.Trace[0].Function == "" {
			continue // imported or required only: the code does not call it
		}
		called[m.Finding.OSV], fixed[m.Finding.OSV] = m.Finding.Trace[0], m.Finding.FixedVersion
	}
	ids := make([]string, 0, len(called))
	for id := range called {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var failed bool
	var report []string
	for _, id := range ids {
		f := called[id]
		if f.Module == "stdlib" {
			report = append(report, fmt.Sprintf("warning: %s in the standard library (%s %s, called in %s): fixed in Go %s; upgrade the toolchain", id, f.Package, f.Version, f.Function, fixed[id]))
			continue
		}
		failed = true
		report = append(report, fmt.Sprintf("FAIL: %s in %s@%s (%s.%s is called): fixed in %s", id, f.Module, f.Version, f.Package, f.Function, fixed[id]))
	}
	report = append(report, fmt.Sprintf("vulncheck: %d called vulnerabilities, %d in required modules", len(ids), countIf(called, func(f frame) bool { return f.Module != "stdlib" })))
	return failed, report, nil
}

func countIf(m map[string]frame, pred func(frame) bool) int {
	n := 0
	for _, f := range m {
		if pred(f) {
			n++
		}
	}
	return n
}
