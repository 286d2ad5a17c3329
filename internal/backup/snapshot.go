package backup

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/miti99bot/miti99bot/internal/buildinfo"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// Options tune a snapshot.
type Options struct {
	// Source names the store in the manifest, as the tools do
	// ("bolt file /data/miti99bot.db").
	Source string
	// Progress, when set, gets a line that rewrites itself (a terminal's
	// \r) every Every while the snapshot runs.
	Progress io.Writer
	Every    time.Duration    // default 200 ms
	Now      func() time.Time // default time.Now
	// Background says the bot serves meanwhile (its scheduled job): the
	// snapshot runs at the lowest CPU and I/O priority (Linux) and rests
	// as long as it works (pacer), so the bot's work comes first.
	Background bool
	// Bot is the numeric id of the bot whose store this is, for the
	// manifest (0: unknown).
	Bot int64
}

func (o *Options) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Every <= 0 {
		o.Every = 200 * time.Millisecond
	}
}

// hotCopier is a store that can copy itself whole inside one read
// transaction: the embedded file.
type hotCopier interface {
	HotCopy(fn func(bolt.Copy) error) error
}

// Snapshot writes an archive of everything p holds to w. The embedded
// file is copied as it is, inside one read transaction, so the archive is
// the store at one instant while the bot goes on writing. Any other
// backend is walked (a DynamoDB Scan, a MongoDB cursor per collection),
// streaming, in memory bounded by one chunk of items: each item is whole
// and as it was at some moment of the walk, not all at one instant (a
// server's scan is not a transaction).
func Snapshot(ctx context.Context, p storage.KVProvider, w io.Writer, o Options) (*Summary, error) {
	o.defaults()
	m := Manifest{Format: Format, Version: Version, Kind: KindItems, Source: o.Source, Created: o.Now().UTC(), Commit: buildinfo.Commit(), Bot: o.Bot}
	if o.Background {
		w = newPacer(ctx, w)
	}
	if hc, ok := p.(hotCopier); ok {
		m.Kind = KindBolt
		return snapshotBolt(ctx, hc, w, m, o)
	}
	return snapshotItems(ctx, p, w, m, o)
}

// snapshotBolt holds one read transaction for the whole copy. Writes go
// on meanwhile; only one that outgrows bbolt's memory map would wait for
// it to end, and the store maps 1 GiB from its start (bolt.Open).
func snapshotBolt(ctx context.Context, hc hotCopier, w io.Writer, m Manifest, o Options) (*Summary, error) {
	var s *Summary
	err := hc.HotCopy(func(c bolt.Copy) error {
		s = &Summary{Namespaces: c.Counts()}
		for _, n := range s.Namespaces {
			s.Items += n
		}
		m.Payload = c.Size()
		a, err := newArchiveWriter(ctx, w, m)
		if err != nil {
			return err
		}
		dst, err := a.begin(boltName, c.Size())
		if err != nil {
			return err
		}
		p := newProgress(o.Progress, o.Every, c.Size())
		if _, err := c.WriteTo(p.counting(dst)); err != nil {
			return err
		}
		p.done()
		return a.finish(s, o.Now)
	})
	if err != nil {
		return nil, fmt.Errorf("backup: snapshot of %s: %w", m.Source, err)
	}
	return s, nil
}

// maxSkippedListed bounds the invalid items a summary names.
const maxSkippedListed = 20

func snapshotItems(ctx context.Context, p storage.KVProvider, w io.Writer, m Manifest, o Options) (*Summary, error) {
	a, err := newArchiveWriter(ctx, w, m)
	if err != nil {
		return nil, err
	}
	s := &Summary{Namespaces: map[string]int64{}}
	c := newChunker(a)
	prog := newProgress(o.Progress, o.Every, 0)
	var skipped int64
	err = storage.WalkAll(ctx, p, func(r storage.Raw) error {
		if why := r.Why(); why != "" {
			if skipped++; len(s.Skipped) < maxSkippedListed {
				s.Skipped = append(s.Skipped, fmt.Sprintf("%s/%q: %s", r.Namespace, r.Key, why))
			}
			return nil
		}
		s.Items++
		s.Namespaces[r.Namespace]++
		prog.items(s.Items)
		return c.add(r.Item)
	})
	if err == nil {
		err = c.flush()
	}
	if err != nil {
		return nil, fmt.Errorf("backup: snapshot of %s after %d items: %w", m.Source, s.Items, err)
	}
	prog.done()
	if more := skipped - int64(len(s.Skipped)); more > 0 {
		s.Skipped = append(s.Skipped, fmt.Sprintf("... and %d more", more))
	}
	if err := a.finish(s, o.Now); err != nil {
		return nil, err
	}
	return s, nil
}
