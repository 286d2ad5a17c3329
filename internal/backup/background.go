package backup

import (
	"context"
	"io"
	"os"
	"runtime"
	"time"
)

// inBackground runs fn as a snapshot taken while the bot serves: on an OS
// thread of its own at the lowest CPU and I/O priority the system gives
// (lowPriority), so the bot's own threads come first. The thread ends
// with fn: it is never handed back to the runtime at that priority.
func inBackground(fn func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
		lowPriority()
		done <- fn()
	}()
	return <-done
}

// paceChunk is how much a paced snapshot writes between rests.
const paceChunk = 1 << 20

// pacer passes writes on to w and, after each paceChunk, has it on disk
// (a file: flushRange) and rests as long as producing, writing and
// flushing it took: the snapshot takes at most half of what it could of
// the CPU and the disk, and never leaves the bot's own writes queued
// behind a file's worth of dirty pages at its final sync.
type pacer struct {
	ctx          context.Context
	w            io.Writer
	f            *os.File // w, when it is a file
	since        time.Time
	n            int
	off, flushed int64
}

func newPacer(ctx context.Context, w io.Writer) *pacer {
	p := &pacer{ctx: ctx, w: w, since: time.Now()}
	p.f, _ = w.(*os.File)
	return p
}

func (p *pacer) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.off += int64(n)
	if p.n += n; err != nil || p.n < paceChunk {
		return n, err
	}
	p.n = 0
	if p.f != nil {
		if err := flushRange(p.f, p.flushed, p.off-p.flushed); err != nil {
			return n, err
		}
		p.flushed = p.off
	}
	rest := time.NewTimer(time.Since(p.since))
	defer rest.Stop()
	select {
	case <-rest.C:
	case <-p.ctx.Done():
		return n, p.ctx.Err()
	}
	p.since = time.Now()
	return n, nil
}
