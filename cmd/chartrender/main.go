// Command chartrender draws one chart: a chart.Request as JSON on standard
// input, the PNG on standard output. The Lambda bootstrap runs it on a
// chart cache miss, so the plotting library stays off its cold start;
// the container draws in process.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chartrender:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	req, err := io.ReadAll(io.LimitReader(in, 8<<20))
	if err != nil {
		return err
	}
	png, err := chart.Serve(draw.Local{}, req)
	if err != nil {
		return err
	}
	_, err = out.Write(png)
	return err
}
