// Command vulncheck reads govulncheck's JSON (-format json) on stdin and
// fails (exit 1) when the code calls any known vulnerability, in a required
// module or in the Go standard library alike: the toolchain is pinned in
// go.mod, so a standard-library fix is ours to take by bumping it. Each
// finding is printed with its id, where it is, the version that fixes it
// and one call path from this module's code to the vulnerable symbol.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type frame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Receiver string `json:"receiver"`
}

type finding struct {
	OSV          string  `json:"osv"`
	FixedVersion string  `json:"fixed_version"`
	Trace        []frame `json:"trace"`
}

type message struct {
	Finding *finding `json:"finding"`
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
	called := map[string]finding{} // osv id -> the first called trace seen
	for {
		var m message
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, nil, fmt.Errorf("not govulncheck JSON: %w", err)
		}
		f := m.Finding
		if f == nil || len(f.Trace) == 0 || f.Trace[0].Function == "" {
			continue // imported or required only: the code does not call it
		}
		if _, seen := called[f.OSV]; !seen {
			called[f.OSV] = *f
		}
	}
	ids := make([]string, 0, len(called))
	for id := range called {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	report := make([]string, 0, len(ids)+1)
	for _, id := range ids {
		report = append(report, describe(called[id]))
	}
	report = append(report, fmt.Sprintf("vulncheck: %d called vulnerabilities", len(ids)))
	return len(ids) > 0, report, nil
}

// describe names the finding, its fix and the call path, outermost caller first.
func describe(f finding) string {
	vuln := f.Trace[0]
	where, fix := vuln.Module+"@"+vuln.Version, f.FixedVersion
	if vuln.Module == "stdlib" {
		where, fix = "the standard library (Go "+vuln.Version+")", "Go "+fix+": bump the toolchain line in go.mod"
	}
	path := make([]string, 0, len(f.Trace))
	for i := len(f.Trace) - 1; i >= 0; i-- {
		path = append(path, symbol(f.Trace[i]))
	}
	return fmt.Sprintf("FAIL: %s in %s, fixed in %s\n  call path: %s", f.OSV, where, fix, strings.Join(path, " -> "))
}

func symbol(fr frame) string {
	if fr.Receiver != "" {
		return fmt.Sprintf("%s.(%s).%s", fr.Package, fr.Receiver, fr.Function)
	}
	return fr.Package + "." + fr.Function
}
