// Package backup takes and restores snapshots of the bot's store, whichever
// backend holds it, as one self-describing archive.
//
// The archive is a plain tar file (archive/tar: `tar tvf` lists it, and a
// self-hoster can take it apart with no tool of ours), uncompressed so that
// taking it keeps up with a raw copy of the store. Its entries, in order:
//
//	manifest.json          what it is: format, version, kind, the store it was taken of, when
//	store.db               kind "bolt": the bbolt file, as one read transaction saw it
//	items/000001.jsonl...  kind "items": every item, one JSON object a line (itemLine)
//	summary.json           written last: item counts per namespace, payload bytes, CRC-32
//
// The CRC-32 (IEEE, zlib's and gzip's) covers the contents of every entry
// before summary.json, in order, so a corrupted archive is refused, and a
// truncated one lacks the summary. A checksum kept inside the archive
// guards against accidents, not against someone who can rewrite the file
// (they can rewrite the sum too): so the fastest one that catches every
// burst of up to 32 bits, not a cryptographic hash, which would cost the
// snapshot of the file more than the copy itself.
// Either kind restores into any backend: the reader serves both as a
// migrate source.
package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Format and Version name the archive format in its manifest.
const (
	Format  = "miti99bot-backup"
	Version = 1
)

// The kinds of payload.
const (
	KindBolt  = "bolt"  // the bbolt file itself (store.db)
	KindItems = "items" // portable item lines (items/*.jsonl), from any backend
)

// Entry names.
const (
	manifestName = "manifest.json"
	boltName     = "store.db"
	itemsDir     = "items/"
	summaryName  = "summary.json"
)

// Manifest is the archive's first entry: enough to know what it holds
// before reading the payload.
type Manifest struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Kind    string    `json:"kind"`
	Source  string    `json:"source"` // the store, as the tools name it: "mongodb database miti99bot"
	Created time.Time `json:"created"`
	Commit  string    `json:"commit,omitempty"` // the build that wrote it
	// Payload is the size of store.db (kind bolt), so a restore knows
	// before reading it how much it unpacks (0: an archive from before).
	Payload int64 `json:"payload,omitempty"`
	// Bot is the numeric id of the bot whose store it is (never its
	// token): a restore into another bot's store is refused unless told,
	// as the parked updates it carries would be answered with the wrong
	// token. 0: not known when it was taken.
	Bot int64 `json:"bot,omitempty"`
}

// Summary is the archive's last entry: what the payload holds and its
// checksum.
type Summary struct {
	Items      int64            `json:"items"`
	Namespaces map[string]int64 `json:"namespaces"`
	// Skipped are items the source holds that break the storage contract
	// (a hand-edited document): not in the archive, listed here.
	Skipped  []string  `json:"skipped,omitempty"`
	Bytes    int64     `json:"bytes"` // the contents of every entry before this one
	CRC32    string    `json:"crc32"` // of those contents, in order (IEEE, hex)
	Finished time.Time `json:"finished"`
}

// itemLine is one item of a KindItems payload: the storage contract's
// Item, its value as base64 (any bytes), its time in Unix nanoseconds.
type itemLine struct {
	NS    string `json:"ns"`
	Key   string `json:"key"`
	At    int64  `json:"at"`
	Value []byte `json:"value"`
}

// ErrDamaged marks an archive that is not whole: truncated, corrupted, or
// not one of ours. Nothing is restored from it.
var ErrDamaged = errors.New("backup: the archive is damaged")

func damaged(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, a...))
}

func (m Manifest) check() error {
	switch {
	case m.Format != Format:
		return damaged("%s is not a %s manifest: not one of ours", manifestName, Format)
	case m.Version != Version:
		return fmt.Errorf("backup: archive version %d; this build reads version %d", m.Version, Version)
	case m.Kind != KindBolt && m.Kind != KindItems:
		return damaged("unknown kind %q", m.Kind)
	}
	return nil
}

func marshal(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain structs of strings, numbers and times
	}
	return append(b, '\n')
}
