package sim

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// What a burst sees of the poller at the Bot API and in the store: the
// offset each getUpdates confirms, the slow chat's held reply, the sends
// that fail, and the inbox items written and deleted.

// peekParams reads a call's parameters and leaves its body to be read
// again.
func peekParams(r *http.Request) map[string]string {
	body, _ := io.ReadAll(r.Body)
	peek := r.Clone(r.Context())
	peek.Body = io.NopCloser(bytes.NewReader(body))
	params, _ := telegramtest.Params(peek)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return params
}

// serve takes p's call to method if it is the burst's to answer; false
// when the front forwards it as usual.
func (b *burst) serve(w http.ResponseWriter, r *http.Request, p *proc, method string) bool {
	switch method {
	case "getUpdates":
		b.checkOffset(peekParams(r))
		return false
	case "sendMessage":
	default:
		return false
	}
	chat, _ := strconv.ParseInt(peekParams(r)["chat_id"], 10, 64)
	b.mu.Lock()
	hold := chat == b.slow && !b.held
	b.held = b.held || hold
	b.sent[chat]++
	f, failing := b.sends[chat]
	failing = failing && f.k == b.sent[chat]
	b.mu.Unlock()
	if hold {
		// Every other chat must get its answers meanwhile: a lane held
		// behind this one never lets the life go on.
		select {
		case <-b.released:
		case <-b.l.end:
		}
	}
	// The fake's next failure goes to this very call: no other send
	// passes meanwhile.
	b.sendMu.Lock()
	defer b.sendMu.Unlock()
	if failing {
		b.l.fake.FailNext("sendMessage", f.failure(b.l))
	}
	b.l.wire.serve(w, r, p.name)
	return true
}

// checkOffset: a getUpdates confirms every update below its offset, so
// each of the burst's there must be handled or landed in the inbox.
func (b *burst) checkOffset(params map[string]string) {
	off, _ := strconv.ParseInt(params["offset"], 10, 64)
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, bu := range b.byID {
		if id < off && !bu.d.handled && !b.landed[id] {
			b.report("getUpdates with offset %d confirms update %d (%s), neither handled nor parked", off, id, bu.d.what)
			return
		}
	}
}

// inboxID is the update an inbox key of the poller names (0: another key).
func inboxID(ns, key string) int64 {
	if ns != "core" || !strings.HasPrefix(key, storage.InboxPrefix) {
		return 0
	}
	id, _ := strconv.ParseInt(key[strings.LastIndexByte(key, ':')+1:], 10, 64)
	return id
}

// parking notes an inbox write of an update of the burst about to start.
func (b *burst) parking(id int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID[id] != nil {
		b.parks[id] = true
		b.parked++
	}
}

// parkEnded notes the end of that write.
func (b *burst) parkEnded(id int64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID[id] != nil && err == nil {
		b.landed[id] = true
	}
}

// unparked notes the inbox item of an update deleted.
func (b *burst) unparked(id int64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID[id] != nil && err == nil {
		delete(b.parks, id)
		b.settle()
	}
}
