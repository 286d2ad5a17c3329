package locale

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"time"
)

// Join is a module's Module.Texts made of its own files (own, may be nil)
// with a shared package's appended (the games' flow, the markets' common
// words): each Dir/<lang>.toml reads as own's, then shared's. TOML allows
// the join as long as the shared file has only tables, so none of its keys
// lands in own's last table. Files are joined when the catalog reads them.
func Join(own, shared fs.FS) fs.FS { return joined{own, shared} }

type joined struct{ own, shared fs.FS }

var _ fs.ReadFileFS = joined{}

func (j joined) ReadFile(name string) ([]byte, error) {
	if j.own == nil {
		return fs.ReadFile(j.shared, name)
	}
	own, err := fs.ReadFile(j.own, name)
	if err != nil {
		return nil, err
	}
	common, err := fs.ReadFile(j.shared, name)
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
