package main

import (
	"fmt"
	"io"
	"os"
)

// openConsoleLog is where the console's logs go: path ("-": stderr, "": a
// new file in the temporary directory, kept after the session for reading),
// and how the console names it.
func openConsoleLog(path string, stderr io.Writer) (w io.Writer, at string, closeFn func(), err error) {
	var f *os.File
	switch path {
	case "-":
		return stderr, "stderr", func() {}, nil
	case "":
		f, err = os.CreateTemp("", "miti99bot-console-*.log")
	default:
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	}
	if err != nil {
		return nil, "", nil, fmt.Errorf("console log: %w", err)
	}
	return f, f.Name(), func() { f.Close() }, nil
}
