// Package webapp serves the Mini App: the web page Telegram opens inside a
// chat (GET /app/), and the JSON it reads (GET /app/api/...), answered
// only to a request that carries Telegram's signed initData
// ("Authorization: tma <initData>"), for the user it names:
//
//	GET /app/                        the page (embedded)
//	GET /app/static/<file>           its script, style and chart library
//	GET /app/api/me                  the user, and every module's WebMe answer
//	GET /app/api/<module>/<route>    one module's route
//
// A missing, forged, altered or stale initData gets 401 with no body; a
// user past their rate gets 429.
package webapp

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

// apiTimeout bounds one API answer.
const apiTimeout = 10 * time.Second

// Default per-user rate: a page load asks once or twice; a user tapping
// refresh stays well inside it.
const (
	DefaultRate  = rate.Limit(2) // requests per second, sustained
	DefaultBurst = 10
)

// Config wires the Mini App.
type Config struct {
	// Token is the bot's token, which signs initData. Empty: no Mini App
	// (every /app/ path is 404).
	Token  string
	Routes []core.WebRoute
	Log    *slog.Logger
	// Now is the clock auth_date is held to (default time.Now).
	Now func() time.Time
	// Rate and Burst limit each user's API requests (zero: the defaults).
	Rate  rate.Limit
	Burst int
	// Lang is the language user reads, their client's language_code
	// given: the engine's rule (core.App.UserLang). nil: the client's.
	Lang func(ctx context.Context, user int64, client string) locale.Lang
	// Zone is the clock user reads: the engine's rule (core.App.UserZone).
	// nil: Vietnam's.
	Zone func(ctx context.Context, user int64) *time.Location
}

type server struct {
	check  *initdata.Validator
	routes map[string]map[string]app.WebRoute // module, name
	me     []core.WebRoute
	limits *limiter
	log    *slog.Logger
	lang   func(ctx context.Context, user int64, client string) locale.Lang
	zone   func(ctx context.Context, user int64) *time.Location
}

// New returns the handler of every /app/ path.
func New(c Config) http.Handler {
	if c.Token == "" {
		return http.NotFoundHandler()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Lang == nil {
		c.Lang = func(_ context.Context, _ int64, client string) locale.Lang { return locale.FromTelegram(client) }
	}
	if c.Zone == nil {
		c.Zone = func(context.Context, int64) *time.Location { return locale.Vietnam }
	}
	if c.Rate == 0 {
		c.Rate, c.Burst = DefaultRate, DefaultBurst
	}
	s := &server{check: initdata.New(c.Token, c.Now), routes: map[string]map[string]app.WebRoute{},
		limits: newLimiter(c.Rate, c.Burst, c.Now), log: c.Log, lang: c.Lang, zone: c.Zone}
	for _, r := range c.Routes {
		if s.routes[r.Module] == nil {
			s.routes[r.Module] = map[string]app.WebRoute{}
		}
		s.routes[r.Module][r.Name] = r.WebRoute
		if r.Name == app.WebMe {
			s.me = append(s.me, r)
		}
	}
	mux := http.NewServeMux()
	// The page is read and compressed at its first request, not at start:
	// a Lambda cold start that serves a webhook never pays for it.
	mux.HandleFunc("GET /app/{$}", func(w http.ResponseWriter, r *http.Request) { loadPage().index(w, r) })
	mux.HandleFunc("GET /app/static/{file}", func(w http.ResponseWriter, r *http.Request) { loadPage().static(w, r) })
	mux.HandleFunc("GET /app/api/me", s.api(s.meAnswer))
	mux.HandleFunc("GET /app/api/{module}/{route}", s.api(s.routeAnswer))
	return mux
}

// Me is GET /app/api/me: who the user is, the language they read (the
// page's words, and every module's figures, are in it), and each
// module's part.
type Me struct {
	User    initdata.User  `json:"user"`
	Lang    locale.Lang    `json:"lang"`
	Marks   Marks          `json:"marks"`
	Modules map[string]any `json:"modules"`
}

// Marks are the language's decimal mark and thousands separator, for
// the figures the page writes itself (a chart's axis): the modules' own
// are written by internal/locale, and the page's read the same.
type Marks struct {
	Decimal string `json:"decimal"`
	Group   string `json:"group"`
}

// answer is an API answer to req, whose user d's initData names.
type answer func(ctx context.Context, req *app.WebRequest, d initdata.Data, r *http.Request) (any, error)

func (s *server) meAnswer(ctx context.Context, req *app.WebRequest, d initdata.Data, _ *http.Request) (any, error) {
	answers := make([]any, len(s.me))
	g, ctx := errgroup.WithContext(ctx)
	for i, route := range s.me {
		g.Go(func() error {
			var err error
			own := *req // each module's, as a route's is
			answers[i], err = route.Handler(ctx, &own)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	me := Me{User: d.User, Lang: req.Lang, Modules: map[string]any{}}
	me.Marks.Decimal, me.Marks.Group = locale.Marks(req.Lang)
	for i, route := range s.me {
		me.Modules[route.Module] = answers[i]
	}
	return me, nil
}

func (s *server) routeAnswer(ctx context.Context, req *app.WebRequest, _ initdata.Data, r *http.Request) (any, error) {
	route, ok := s.routes[r.PathValue("module")][r.PathValue("route")]
	if !ok {
		return nil, app.ErrWebNotFound
	}
	return route.Handler(ctx, req)
}

// api checks who asks and how often, hears which language they read,
// then answers JSON. Nothing of the request (its initData above all) is
// logged: only the user's id and the route's error.
func (s *server) api(answer answer) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		d, ok := s.identify(r)
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if !s.limits.allow(d.User.ID) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), apiTimeout)
		defer cancel()
		req := &app.WebRequest{UserID: d.User.ID, Query: r.URL.Query(), StartParam: d.StartParam,
			Lang: s.lang(ctx, d.User.ID, d.User.Language), Zone: s.zone(ctx, d.User.ID)}
		out, err := answer(ctx, req, d, r)
		switch {
		case errors.Is(err, app.ErrWebNotFound):
			w.WriteHeader(http.StatusNotFound)
			return
		case errors.Is(err, app.ErrWebForbidden):
			w.WriteHeader(http.StatusForbidden)
			return
		case err != nil:
			s.log.Warn("mini app answer failed", "path", r.URL.Path, "user_id", d.User.ID, "err", err)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		s.writeJSON(w, r, d.User.ID, out)
	}
}

// gzipFrom is the size from which an answer goes gzipped: a portfolio's
// 13 KB are 2 KB so, which on a slow phone link is most of the wait.
const gzipFrom = 1 << 10

// writeJSON answers out, gzipped when large and the client takes it; one
// that cannot be encoded is a logged 500, never an empty 200.
func (s *server) writeJSON(w http.ResponseWriter, r *http.Request, user int64, out any) {
	b, err := json.Marshal(out)
	if err != nil {
		s.log.Error("mini app answer cannot be encoded", "path", r.URL.Path, "user_id", user, "err", err)
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	b = append(b, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Vary", "Accept-Encoding")
	if len(b) >= gzipFrom && acceptsGzip(r) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, _ = zw.Write(b)
		_ = zw.Close()
		h.Set("Content-Encoding", "gzip")
		b = gz.Bytes()
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}
