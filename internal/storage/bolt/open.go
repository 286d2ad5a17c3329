package bolt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	bbolt "go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"
)

// ErrLocked: another process has the file open.
var ErrLocked = errors.New("bolt: the file is in use by another process (one bot, or the migrator, at a time)")

// ErrDamaged: the file is not a whole, consistent store. The error that
// wraps it names the path and what is wrong; the remedy is the backup.
var ErrDamaged = errors.New("damaged: restore from a backup")

// ErrEmpty: the file exists and holds 0 bytes. That is far more often a
// failed copy or restore than a wish to start over, so it is refused
// unless CreateIfEmpty says otherwise.
var ErrEmpty = errors.New("an empty (0-byte) file: restore a snapshot into it (botctl backup restore <archive> with this BOLT_PATH), or delete it to start a new store")

// lockWait is how long Open waits for the file's lock.
const lockWait = 2 * time.Second

// Option configures Open.
type Option func(*options)

type options struct {
	createIfEmpty bool
	mapSize       int // bbolt's InitialMmapSize
}

// initialMap is the memory map bbolt starts with: 1 GiB on 64-bit, bbolt's
// default (0: the file's size, doubling) on 32-bit, where address space is
// short. A write that outgrows the map remaps the file, which waits for
// every read transaction to end while every new one waits behind it: a
// snapshot's long copy would hold the whole bot up. The map is address
// space, not memory: only the pages read are resident. With it bbolt
// grows the file 16 MiB ahead of its data from the first write (a hole:
// no disk blocks until written), as it does past 16 MiB anyway.
const initialMap = (strconv.IntSize / 64) << 30

// CreateIfEmpty makes Open start a new store in an existing 0-byte file
// instead of refusing it. A missing file is created either way.
func CreateIfEmpty() Option { return func(o *options) { o.createIfEmpty = true } }

// Open opens (creating, with mode 0600) the file at path. It first takes
// the file's lock, so that no other process writes while it checks that
// the file is whole: its size against its meta page and every page of its
// tree, read from the file; then every item against the contract's rules,
// and bbolt's own consistency check. A damaged file gives ErrDamaged,
// never a crash: bbolt reads the file through a memory map, where a page
// past the end faults (SIGBUS) and garbage makes it panic or read anywhere.
func Open(path string, opts ...Option) (*Provider, error) {
	o := options{mapSize: initialMap}
	for _, opt := range opts {
		opt(&o)
	}
	f, created, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("bolt: %w", err)
	}
	if err := checkOpened(f, created, o); err != nil {
		f.Close()
		return nil, err
	}
	db, err := openDB(f, o.mapSize)
	switch {
	case errors.Is(err, errPanicked), errors.Is(err, bberrors.ErrInvalid),
		errors.Is(err, bberrors.ErrChecksum), errors.Is(err, bberrors.ErrVersionMismatch):
		return nil, damaged(path, err)
	case err != nil:
		return nil, fmt.Errorf("bolt: open %s: %w", path, err)
	}
	if err := verify(db); err != nil {
		db.Close()
		return nil, damaged(path, err)
	}
	return &Provider{db: db, path: path, now: time.Now}, nil
}

// openFile opens path, or creates it; created tells a new file from an
// existing empty one.
func openFile(path string) (f *os.File, created bool, err error) {
	for {
		if f, err = os.OpenFile(path, os.O_RDWR, 0); !errors.Is(err, fs.ErrNotExist) {
			return f, false, err
		}
		if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); !errors.Is(err, fs.ErrExist) {
			return f, err == nil, err
		} // another process created it since: open it
	}
}

// checkOpened locks the file, then checks it as bbolt will find it.
func checkOpened(f *os.File, created bool, o options) error {
	switch err := lock(f); {
	case errors.Is(err, ErrLocked):
		return fmt.Errorf("%w: %s", err, f.Name())
	case err != nil:
		return fmt.Errorf("bolt: locking %s: %w", f.Name(), err)
	}
	if err := f.Chmod(0o600); err != nil { // an older file may be wider open
		return fmt.Errorf("bolt: %w", err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("bolt: %w", err)
	case fi.Size() == 0 && !created && !o.createIfEmpty:
		return fmt.Errorf("bolt: %s is %w", f.Name(), ErrEmpty)
	case fi.Size() > 0:
		if err := checkFile(f, fi.Size()); err != nil {
			return damaged(f.Name(), err)
		}
	}
	return nil
}

func damaged(path string, err error) error {
	return fmt.Errorf("bolt: %s is %w (%w)", path, ErrDamaged, err)
}

// errPanicked marks a fault or panic of bbolt's, recovered.
var errPanicked = errors.New("reading it crashed bbolt")

// openDB is bbolt.Open on the file already open and locked, with a fault
// or panic made an error: opening reads the freelist page through the
// map. After one the file is closed, which releases its lock; the map
// stays until the process exits, which the caller then does.
func openDB(f *os.File, mapSize int) (db *bbolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			f.Close()
			db, err = nil, fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return bbolt.Open(f.Name(), 0o600, &bbolt.Options{
		Timeout:         lockWait, // the lock is ours already: bbolt's flock on the same file succeeds at once
		OpenFile:        func(string, int, os.FileMode) (*os.File, error) { return f, nil },
		InitialMmapSize: mapSize,
	})
}
