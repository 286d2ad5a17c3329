package trading

import (
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"path"
	"time"
)

// shared are the words every market says alike (trades, refusals, the
// stats report, boards, charts, the asking buy and sell), all under the
// table "trading".
//
//go:embed locales/*.toml
var shared embed.FS

// Texts are a market module's Module.Texts: its own locale files (its
// command descriptions and the words its Kit names by key) with the
// shared ones appended, so a request's words say "trading.bought" in
// every market. Files are joined when the catalog reads them, at its
// first lookup. Texts(nil) are the shared words alone.
func Texts(own fs.FS) fs.FS { return joined{own} }

type joined struct{ own fs.FS }

var _ fs.ReadFileFS = joined{}

// ReadFile is the market's file, then the shared one of the same name.
// The shared file has only tables, so none of its keys lands in the
// market file's last table.
func (j joined) ReadFile(name string) ([]byte, error) {
	if j.own == nil {
		return fs.ReadFile(shared, name)
	}
	own, err := fs.ReadFile(j.own, name)
	if err != nil {
		return nil, err
	}
	common, err := fs.ReadFile(shared, name)
	if errors.Is(err, fs.ErrNotExist) {
		return own, nil
	}
	if err != nil {
		return nil, err
	}
	return bytes.Join([][]byte{own, common}, []byte("\n")), nil
}

func (j joined) Open(name string) (fs.File, error) {
	buf, err := j.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &file{Reader: bytes.NewReader(buf), name: path.Base(name), size: int64(len(buf))}, nil
}

// file is a joined file, read from memory.
type file struct {
	*bytes.Reader
	name string
	size int64
}

func (f *file) Stat() (fs.FileInfo, error) { return f, nil }
func (f *file) Close() error               { return nil }
func (f *file) Name() string               { return f.name }
func (f *file) Size() int64                { return f.size }
func (f *file) Mode() fs.FileMode          { return 0o444 }
func (f *file) ModTime() time.Time         { return time.Time{} }
func (f *file) IsDir() bool                { return false }
func (f *file) Sys() any                   { return nil }
