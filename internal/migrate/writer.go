package migrate

import (
	"context"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// writer loads the copy's batches into the destination on a goroutine of
// its own, so that the source is read while the destination writes: the
// walk fills the next batch while the last one loads (at most two are
// held). Batches load one at a time, in the order they were read.
type writer struct {
	batches chan []storage.Item
	failed  chan struct{} // closed when a load fails; err says why
	done    chan struct{} // closed when the loads have ended
	spare   []storage.Item
	err     error
}

func startWriter(ctx context.Context, dst Destination, load storage.LoadOptions, rep *Report, dryRun bool) *writer {
	w := &writer{batches: make(chan []storage.Item), failed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for batch := range w.batches {
			if dryRun || w.err != nil {
				continue // a dry run writes nothing; after a failure, none loads
			}
			res, err := dst.Load(ctx, batch, load)
			rep.Written += int64(res.Written)
			rep.Unchanged += int64(res.Unchanged)
			rep.KeptNewer += int64(res.KeptNewer)
			rep.Deleted += int64(res.Deleted)
			if err != nil {
				w.err = err
				close(w.failed)
			}
		}
	}()
	return w
}

// write hands batch over to be loaded and returns an empty batch to fill:
// the one loaded before, which the writer is done with once it takes this.
func (w *writer) write(batch []storage.Item) ([]storage.Item, error) {
	if len(batch) == 0 {
		return batch, nil
	}
	select {
	case w.batches <- batch:
	case <-w.failed:
		return batch[:0], w.err
	}
	next := w.spare
	if next == nil {
		next = make([]storage.Item, 0, cap(batch))
	}
	w.spare = batch
	return next[:0], nil
}

// close waits for the last load and says whether any failed.
func (w *writer) close() error {
	close(w.batches)
	<-w.done
	return w.err
}
