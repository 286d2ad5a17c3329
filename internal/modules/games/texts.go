package games

import (
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"path"
	"time"
)

// shared are the words of the shared flow: buttons, toasts, the give-up
// and stats replies, all under the table "games".
//
//go:embed locales/*.toml
var shared embed.FS

// Texts are a game module's Module.Texts: its own locale files with the
// shared flow's appended, so its catalog says "games.give_up" and the rest
// as every game does, and the catalog test checks them as the module's.
// The module's catalog must also have "game", how its replies name the
// game ("Wordle"). Files are joined when the catalog reads them, at its
// first lookup.
func Texts(own fs.FS) fs.FS { return joined{own} }

type joined struct{ own fs.FS }

var _ fs.ReadFileFS = joined{}

// ReadFile is the module's file, then the shared one of the same name.
// TOML allows the join: the shared file has only tables, so none of its
// keys lands in the module file's last table.
func (j joined) ReadFile(name string) ([]byte, error) {
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
