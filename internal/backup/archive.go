package backup

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// Archive is a snapshot opened for reading once it has been checked whole:
// a read-only store that the migrator copies from and verifies against,
// whichever kind it is.
type Archive struct {
	Manifest Manifest
	Summary  Summary
	path     string
	file     *bolt.Provider // kind bolt: the payload, extracted
	tmp      string
}

var (
	_ storage.KVProvider = (*Archive)(nil)
	_ storage.Walker     = (*Archive)(nil)
	_ storage.Loader     = (*Archive)(nil)
)

// Open reads the archive at path to its end and refuses it (ErrDamaged)
// unless it is whole, before anything else reads from it. A bolt payload
// is extracted into tmpDir ("": the system's), once that has room for it
// (ErrNoRoom), and opened, which checks the file page by page once more;
// Close removes it.
func Open(path, tmpDir string) (*Archive, error) {
	a := &Archive{path: path}
	if err := a.open(tmpDir); err != nil {
		if a.tmp != "" {
			os.Remove(a.tmp)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

func (a *Archive) open(tmpDir string) error {
	f, err := os.Open(a.path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	var tmp *os.File
	c, err := check(f, fi.Size(), func(size int64) (io.Writer, error) {
		if err := roomFor(tmpDir, size); err != nil {
			return nil, err
		}
		var cerr error
		if tmp, cerr = os.CreateTemp(tmpDir, "miti99bot-restore-*.db"); cerr != nil {
			return nil, fmt.Errorf("backup: a place for the file: %w", cerr)
		}
		a.tmp = tmp.Name()
		return tmp, nil
	})
	if tmp != nil {
		if cerr := tmp.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("backup: %w", cerr)
		}
	}
	if err != nil {
		return err
	}
	a.Manifest, a.Summary = c.Manifest, c.Summary
	if a.Manifest.Kind != KindBolt {
		return nil
	}
	if a.file, err = bolt.Open(a.tmp); err != nil {
		return fmt.Errorf("%w: its file: %w", ErrDamaged, err)
	}
	var counts map[string]int64
	_ = a.file.HotCopy(func(c bolt.Copy) error { counts = c.Counts(); return nil })
	if !maps.Equal(counts, a.Summary.Namespaces) {
		a.file.Close(context.Background())
		return damaged("its file holds %v items per namespace, its summary says %v", counts, a.Summary.Namespaces)
	}
	return nil
}

// Close releases the archive and removes what Open extracted.
func (a *Archive) Close(ctx context.Context) error {
	var err error
	if a.file != nil {
		err = a.file.Close(ctx)
	}
	if a.tmp != "" {
		err = errors.Join(err, os.Remove(a.tmp))
	}
	return err
}

// Walk streams every item of the archive, in its order.
func (a *Archive) Walk(ctx context.Context, fn func(storage.Raw) error) error {
	if a.file != nil {
		return a.file.Walk(ctx, fn)
	}
	f, err := os.Open(a.path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return truncated(err)
		case !strings.HasPrefix(hdr.Name, itemsDir):
			continue
		}
		if err := readLines(tr, func(it storage.Item) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(storage.Raw{Item: it})
		}); err != nil {
			return err
		}
	}
}

// Namespaces are those the summary counts items of.
func (a *Archive) Namespaces(context.Context) ([]string, error) {
	var out []string
	for ns, n := range a.Summary.Namespaces {
		if n > 0 {
			out = append(out, ns)
		}
	}
	slices.Sort(out)
	return out, nil
}

// errStop ends a walk early without an error of its own.
var errStop = errors.New("stop")

// Items streams one namespace: in key order from a bolt payload, in the
// archive's order (the source's scan) from item lines.
func (a *Archive) Items(ctx context.Context, ns string) iter.Seq2[storage.Item, error] {
	if a.file != nil {
		return a.file.Items(ctx, ns)
	}
	return func(yield func(storage.Item, error) bool) {
		err := a.Walk(ctx, func(r storage.Raw) error {
			if r.Namespace == ns && !yield(r.Item, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && err != errStop {
			yield(storage.Item{}, err)
		}
	}
}

// For is a namespace of the archive, read only: a Get or List scans the
// archive (the migrator asks it for one key, a checkpoint).
func (a *Archive) For(ns string) storage.KVStore {
	if a.file != nil {
		return storage.Wrap(ns, readOnly{a.file.For(ns), a, ns})
	}
	return storage.Wrap(ns, readOnly{nil, a, ns})
}

// ErrReadOnly: an archive is never written to.
var ErrReadOnly = errors.New("backup: an archive is read-only")

// Load refuses: an archive is a source only (the migrator's tools take
// any store that loads as either end, and refuse this one as a target).
func (a *Archive) Load(context.Context, []storage.Item, storage.LoadOptions) (storage.LoadResult, error) {
	return storage.LoadResult{}, ErrReadOnly
}

// readOnly is a namespace of an archive as a storage.Backend.
type readOnly struct {
	file storage.KVStore // kind bolt: the extracted file's namespace
	a    *Archive
	ns   string
}

func (r readOnly) Get(ctx context.Context, key string) ([]byte, error) {
	if r.file != nil {
		return r.file.Get(ctx, key)
	}
	var val []byte
	for it, err := range r.a.Items(ctx, r.ns) {
		if err != nil {
			return nil, err
		}
		if it.Key == key {
			val = it.Value
			break
		}
	}
	if val == nil {
		return nil, storage.ErrNotFound
	}
	return val, nil
}

func (r readOnly) List(ctx context.Context, prefix string) ([]string, error) {
	if r.file != nil {
		return r.file.List(ctx, prefix)
	}
	var keys []string
	for it, err := range r.a.Items(ctx, r.ns) {
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(it.Key, prefix) {
			keys = append(keys, it.Key)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

func (readOnly) Put(context.Context, string, []byte) error { return ErrReadOnly }
func (readOnly) Delete(context.Context, string) error      { return ErrReadOnly }
func (readOnly) CompareAndSwap(context.Context, string, []byte, []byte) error {
	return ErrReadOnly
}
func (readOnly) CompareAndDelete(context.Context, string, []byte) error { return ErrReadOnly }
