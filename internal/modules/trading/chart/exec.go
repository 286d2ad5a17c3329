package chart

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// HelperName is the renderer helper's file name, beside the executable
// (the Lambda package ships bootstrap and chartrender together).
const HelperName = "chartrender"

// ErrNoRenderer: this binary draws no charts itself and has no helper.
var ErrNoRenderer = errors.New("chart: no renderer in this binary and no " + HelperName + " beside it")

// Request is what the helper reads on its standard input.
type Request struct {
	Price *Series    `json:"price,omitempty"`
	Value *Portfolio `json:"value,omitempty"`
}

// Exec draws by running the helper: one process per picture, only on a
// cache miss, so the plotting library never loads with the bot.
type Exec struct {
	// Path is the helper; empty: HelperName beside the executable.
	Path string
}

// Price draws s in the helper.
func (e Exec) Price(s Series) ([]byte, error) { return e.run(Request{Price: &s}) }

// Value draws s in the helper.
func (e Exec) Value(s Portfolio) ([]byte, error) { return e.run(Request{Value: &s}) }

// helperTimeout bounds one drawing: a render takes tens of milliseconds.
const helperTimeout = 20 * time.Second

func (e Exec) run(req Request) ([]byte, error) {
	path := e.Path
	if path == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNoRenderer, err)
		}
		path = filepath.Join(filepath.Dir(self), HelperName)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoRenderer, err)
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	defer cancel()
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("chart: %s: %w: %s", HelperName, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out.Bytes(), nil
}

// Serve is the helper's whole work: a Request on in, the PNG on out,
// drawn by d.
func Serve(d Drawer, in []byte) ([]byte, error) {
	var req Request
	if err := json.Unmarshal(in, &req); err != nil {
		return nil, fmt.Errorf("chart: request: %w", err)
	}
	switch {
	case req.Price != nil:
		return d.Price(*req.Price)
	case req.Value != nil:
		return d.Value(*req.Value)
	}
	return nil, errors.New("chart: request: neither a price nor a value chart")
}
