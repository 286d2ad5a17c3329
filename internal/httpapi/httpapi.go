// Package httpapi is the bot's one HTTP surface, served by the container
// with net/http and by Lambda through its Function URL adapter, so a test of
// this handler is a test of both runtimes:
//
//	GET  /              200 "miti99bot ok"
//	GET  /healthz       200 when Health says the bot can serve, else 503
//	POST /webhook       a Telegram update (X-Telegram-Bot-Api-Secret-Token)
//	POST /cron/{name}   run a cron job now (X-Cron-Token)
//	GET  /cron/status   every job's last runs and next fire, naming the store (X-Cron-Token)
//	GET  /app/...       the Mini App, its page and its API (internal/webapp)
package httpapi

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// MaxWebhookBody caps a webhook request; Telegram's updates are far smaller.
const MaxWebhookBody = 1 << 20

// healthTimeout bounds the health check.
const healthTimeout = 2 * time.Second

// Config wires the handler.
type Config struct {
	// Handle handles one update (core.App.HandleUpdate).
	Handle func(ctx context.Context, u *models.Update) error
	// Health is nil when the bot can serve (core.App.Health).
	Health     func(ctx context.Context) error
	Dispatcher *cron.Dispatcher
	// WebhookSecret enables POST /webhook; empty means 404.
	WebhookSecret string
	// CronSecret enables POST /cron/{name} and GET /cron/status; empty
	// means 404 for every request.
	CronSecret string
	// Store names the store in GET /cron/status (backend.Describe).
	Store string
	// Secrets are masked out of GET /cron/status (a job's error may quote one).
	Secrets []string
	Log     *slog.Logger
	// Now is the clock of the cron route (default time.Now).
	Now func() time.Time
	// App serves every /app/ path (webapp.New); nil: 404.
	App http.Handler
}

func (c Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Timeouts of the container's HTTP server. A webhook body is at most 1 MiB
// and an update is answered within core.UpdateBudget, so nothing legitimate
// needs more; a client that sends slowly or idles is cut off instead of
// holding a connection.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second                                    // headers and the body
	writeTimeout      = core.UpdateBudget + core.RecordTime + 5*time.Second // the run, its record, the answer
	idleTimeout       = 30 * time.Second
	cronAnswerTimeout = app.MaxCronTimeout + core.RecordTime + 5*time.Second // the longest run, its record, the answer
	maxHeaderBytes    = 16 << 10
)

// NewServer serves h with those timeouts.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler: h, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes,
	}
}

// refuse answers a request with a wrong secret at once, without reading its
// body, and closes the connection.
func refuse(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusUnauthorized)
}

// NewHandler returns the routes.
func NewHandler(c Config) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "miti99bot ok\n")
	})
	mux.HandleFunc("GET /healthz", c.healthz)
	mux.HandleFunc("POST /webhook", c.webhook)
	mux.HandleFunc("/cron/{name}", c.cron)
	mux.HandleFunc("GET /cron/status", c.cronStatus)
	if c.App != nil {
		mux.Handle("/app/", c.App)
	}
	return mux
}

func (c Config) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	err := c.Health(ctx)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if core.IsDegraded(err) {
		// The damaged item was logged at ERROR when first read; a probe
		// every 30 s need not say it again.
		c.Log.Debug("health check: degraded", "err", err)
		_, _ = io.WriteString(w, "degraded: "+healthReason(err)+"\n")
		return
	}
	if err != nil {
		c.Log.Warn("health check failed", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "unhealthy: "+healthReason(err)+"\n")
		return
	}
	_, _ = io.WriteString(w, "ok\n")
}

// healthReason is what the body says of a failed check: a HealthError's
// Reason (its detail stays in the log); the checks' other errors are
// written to be shown (the poller's name no secret and quote no server).
func healthReason(err error) string {
	var he *core.HealthError
	if errors.As(err, &he) {
		return he.Reason
	}
	return err.Error()
}

// admits lets a request through to a route guarded by secret in header:
// the route is not there (404) without a secret, and refused (401) when
// the token does not match.
func admits(w http.ResponseWriter, r *http.Request, secret, header string) bool {
	if secret == "" {
		http.NotFound(w, r)
		return false
	}
	if !secretMatches(r.Header.Get(header), secret) {
		refuse(w)
		return false
	}
	return true
}

// secretMatches compares in constant time, so the answer's timing tells an
// attacker nothing about how much of a guess was right.
func secretMatches(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func (c Config) webhook(w http.ResponseWriter, r *http.Request) {
	if !admits(w, r, c.WebhookSecret, "X-Telegram-Bot-Api-Secret-Token") {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxWebhookBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	u, ignored, err := telegram.DecodeUpdate(body)
	if err != nil {
		http.Error(w, "body is not a Telegram update", http.StatusBadRequest)
		return
	}
	if len(ignored) > 0 {
		// Newer than our decoder: handled with what it could read. The
		// paths name fields, never their content.
		c.Log.Warn("update decoded in part", "update_id", u.ID, "ignored", ignored)
	}
	// Handled before answering: Lambda freezes the process after the
	// response, and a 500 makes Telegram deliver the update again.
	if err := c.Handle(r.Context(), u); err != nil {
		http.Error(w, "update not handled; retry", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (c Config) cron(w http.ResponseWriter, r *http.Request) {
	if c.CronSecret == "" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if !admits(w, r, c.CronSecret, "X-Cron-Token") {
		return
	}
	name := r.PathValue("name") // Dispatch answers ErrUnknownJob for any name no module has
	now := c.now()
	slot := now
	if s := r.URL.Query().Get("scheduled"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			http.Error(w, "scheduled must be RFC 3339", http.StatusBadRequest)
			return
		}
		if err := cron.CheckManualSlot(t, now); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		slot = t
	}
	// The answer waits for the run, which a job may make longer than the
	// server's write timeout (up to app.MaxCronTimeout). Under Lambda the
	// writer cannot take a deadline; the function's own timeout covers it.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(cronAnswerTimeout))
	out, err := c.Dispatcher.Dispatch(r.Context(), name, slot)
	switch {
	case errors.Is(err, cron.ErrUnknownJob):
		http.NotFound(w, r)
	case err != nil:
		http.Error(w, "job failed", http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, string(out)+"\n")
	}
}

// cronStatus answers what botctl cron status prints, from the bot itself:
// the operator's way in where botctl cannot open the store (the embedded
// file, locked by the running bot) or has no botctl (the image).
func (c Config) cronStatus(w http.ResponseWriter, r *http.Request) {
	if !admits(w, r, c.CronSecret, "X-Cron-Token") {
		return
	}
	statuses, err := c.Dispatcher.Statuses(r.Context())
	if err != nil {
		c.Log.Warn("cron status unreadable", "err", err)
		http.Error(w, "cron status unreadable: the store failed", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_ = cron.WriteTable(w, c.Store, cron.Redacted(statuses, c.Secrets...))
}
