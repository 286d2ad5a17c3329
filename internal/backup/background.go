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

// paceChunk is how much a paced snapshot writes between rests: small
// enough that a write of the bot's never waits long behind one on disk.
const paceChunk = 256 << 10

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

// Write passes b on a chunk at a time, resting after each.
func (p *pacer) Write(b []byte) (int, error) {
	var done int
	for len(b) > 0 {
		part := b[:min(len(b), paceChunk-p.n)]
		n, err := p.w.Write(part)
		done, b = done+n, b[n:]
		p.off += int64(n)
		if p.n += n; err != nil {
			return done, err
		}
		if p.n == paceChunk {
			if err := p.rest(); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// rest puts what was written since the last rest on disk, then waits as
// long as that took to produce, write and flush.
func (p *pacer) rest() error {
	p.n = 0
	if p.f != nil {
		if err := flushRange(p.f, p.flushed, p.off-p.flushed); err != nil {
			return err
		}
		p.flushed = p.off
	}
	t := time.NewTimer(time.Since(p.since))
	defer t.Stop()
	select {
	case <-t.C:
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	p.since = time.Now()
	return nil
}
