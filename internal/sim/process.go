package sim

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/lambdaevent"
	"github.com/miti99bot/miti99bot/internal/poller"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// runtime is what serves the bot in a stretch of the life.
type runtime int

const (
	rtLambda  runtime = iota // the Function URL handler of cmd/lambda; cron by EventBridge
	rtWebhook                // the container in webhook mode; its in-process cron
	rtPoller                 // the container polling getUpdates; its in-process cron
	nRuntimes
)

var runtimeNames = [nRuntimes]string{"lambda", "webhook", "poller"}

func (r runtime) String() string { return runtimeNames[r] }

// The secrets Telegram and EventBridge present.
const (
	webhookSecret = "sim-webhook-secret"
	cronSecret    = "sim-cron-secret"
)

// proc is one process of the bot: its own core, dispatcher, HTTP surface,
// Telegram client and logger over the one store, as each Lambda
// environment and container replica has in production. A killed process
// is dead for good: its store calls and Bot API calls never land, and its
// logs are lost, as a SIGKILL leaves them.
type proc struct {
	l      *life
	kind   runtime
	name   string
	app    *core.App
	disp   *cron.Dispatcher
	http   http.Handler
	lambda *lambdaevent.Handler
	// appLink is the console's signed test link to the Mini App (miniapp.go).
	appLink func(base string, user int64, name string) string

	dead     atomic.Bool
	died     chan struct{}
	killOnce sync.Once
	tg       atomic.Pointer[fault] // the fault of the attempt it runs (Bot API calls)

	// The poller's; nil for the webhook runtimes.
	poller *poller.Poller
	stop   context.CancelFunc
	ran    chan struct{} // closed when Run returned
}

// kill: the process dies where it stands.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		p.dead.Store(true)
		close(p.died)
	})
}

// run is one run of p's (a delivery, a poller's handling of an update):
// a run that never returns ends p. That is a run ended by runtime.Goexit,
// as a t.Fatal inside it does (a second process that cannot start, built
// while p waits in a store call): nothing answers for it, and whoever
// waits for its answer sees p's death instead of waiting for ever.
func (p *proc) run(f func()) {
	returned := false
	defer func() {
		if !returned {
			p.kill()
		}
	}()
	f()
	returned = true
}

// newProc starts a process of kind over the life's store.
func (l *life) newProc(kind runtime) *proc {
	l.procs++
	p := &proc{l: l, kind: kind, name: fmt.Sprintf("%s-%d", kind, l.procs), died: make(chan struct{})}
	l.front.add(p)
	b, err := wiring.Build(context.Background(), l.wiring(p))
	if err != nil {
		l.t.Fatal(err)
	}
	p.app, p.disp, p.http, p.appLink = b.App, b.Dispatcher, b.HTTP, b.MiniAppTestLink
	p.lambda = &lambdaevent.Handler{HTTP: p.http, Cron: p.disp.Dispatch}
	if kind == rtPoller {
		l.startPoller(p, b.Client, b.Store, b.Log)
	}
	l.hist.count("processes-"+kind.String(), 1)
	return p
}

// procLog drops what a dead process would still log: its stdout is gone.
type procLog struct {
	slog.Handler
	p *proc
}

func (h *procLog) Handle(ctx context.Context, r slog.Record) error {
	if h.p.dead.Load() {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// front is where every process's Telegram client calls: it names the
// process on each recorded call, counts the Bot API calls of an attempt
// for its fault, and holds a dead process's calls.
type front struct {
	l     *life
	url   string
	mu    sync.Mutex
	procs map[string]*proc
}

func (f *front) add(p *proc) { f.mu.Lock(); f.procs[p.name] = p; f.mu.Unlock() }

// uncounted are the calls a process makes of its own, not an update's.
var uncounted = map[string]bool{"getUpdates": true, "deleteWebhook": true, "setWebhook": true, "getMe": true, "setMyCommands": true}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, _ := strings.CutPrefix(r.URL.Path, "/p/")
	name, path, _ := strings.Cut(rest, "/")
	f.mu.Lock()
	p := f.procs[name]
	f.mu.Unlock()
	if p == nil {
		http.NotFound(w, r)
		return
	}
	r.URL.Path = "/" + path
	if p.dead.Load() {
		f.hold(w)
		return
	}
	method := lastSegment(r.URL.Path)
	if b := f.l.burstOn.Load(); b != nil && b.serve(w, r, p, method) {
		return
	}
	if !uncounted[method] && p.tg.Load().hit("telegram", false) {
		fl := p.tg.Load()
		if fl.kind == crashAfter {
			f.l.wire.serve(httptest.NewRecorder(), r, p.name) // it lands; the answer never gets back
		}
		p.kill()
		f.hold(w)
		return
	}
	f.l.raceAtSend(r, method)
	// A call under way when its process dies lands, but its answer never
	// comes back: a dead poller's getUpdates, still waiting at Telegram,
	// would otherwise be handed a later step's update and run it, taking
	// that step's fault, when the goroutines' timing lets it reach
	// Telegram after its successor's first getUpdates.
	ans := httptest.NewRecorder()
	f.l.wire.serve(ans, r, p.name)
	if p.dead.Load() {
		f.hold(w)
		return
	}
	maps.Copy(w.Header(), ans.Header())
	w.WriteHeader(ans.Code)
	_, _ = w.Write(ans.Body.Bytes())
}

// hold keeps a dead process's call until the life ends: no answer ever
// comes back to it.
func (f *front) hold(w http.ResponseWriter) {
	<-f.l.end
	http.Error(w, "the process is dead", http.StatusBadGateway)
}
