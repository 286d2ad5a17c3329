// Package telegramtest is a fake Telegram Bot API server: the project's
// stand-in for Telegram in tests and benchmarks. It speaks the real wire
// format (POST /bot<token>/<method> with JSON, form or multipart bodies;
// {"ok":true,"result":...} and {"ok":false,"error_code":..,"description":..,
// "parameters":{"retry_after":..,"migrate_to_chat_id":..}}), records every call, can be scripted to
// fail (with the answers other projects recorded, see testdata/README.md),
// enforces Telegram's limits, and serves getUpdates long polling and the
// webhook state from a queue.
package telegramtest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"golang.org/x/time/rate"
)

// DefaultToken is the token the fake accepts unless WithToken says otherwise.
const DefaultToken = "123456:TEST-token"

// Call is one recorded request. Params holds every parameter as Telegram
// received it: scalars as text, objects (reply_markup, entities) as JSON.
type Call struct {
	Method string
	Params map[string]string
	// Files are a multipart request's uploads, by field name.
	Files map[string][]byte
	At    time.Time
}

// Server is the fake. Create it with New.
type Server struct {
	URL   string
	Token string
	Bot   models.User

	mu          sync.Mutex
	calls       []Call
	changed     chan struct{} // closed and replaced on every change
	failNext    map[string][]Failure
	chatFail    map[int64]Failure
	threadFail  map[[2]int64]Failure
	now         func() time.Time
	limiter     *rate.Limiter         // overall, WithRateLimit
	groupLimit  int                   // per group and minute, WithGroupLimit
	groupSent   map[int64][]time.Time // sendMessage per group, the last minute's that passed
	limited     int                   // 429s answered by the rate limits
	abandoned   int                   // delayed calls whose client gave up first
	queue       []json.RawMessage     // pending updates, in update_id order
	queueIDs    []int64
	nextUpdate  int64
	nextMessage map[int64]int // by chat
	webhookURL  string
	webhookSec  string
	commands    map[menu][]models.BotCommand // setMyCommands, by scope and language
	poll        *poller                      // the getUpdates request in flight
	shown       map[[2]int64]shown           // (chat, message id) -> what the message says now
	left        map[[2]int64]bool            // (chat, user) no longer a member (Leave)
	admins      map[[2]int64]bool            // (chat, user) -> an administrator, SetChatAdmin
	inline      inlineQueries                // its own lock: answered while s.mu is free
}

// shown is a sent message's current text (a photo's caption) and
// keyboard, for the edits.
type shown struct {
	text, markup string
	photo        bool
}

type poller struct{ cancel chan struct{} }

// Option configures New.
type Option func(*Server)

// New starts a fake server, closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	s := &Server{
		Token:      DefaultToken,
		Bot:        models.User{ID: 123456, IsBot: true, FirstName: "miti99bot", Username: "miti99bot"},
		changed:    make(chan struct{}),
		failNext:   map[string][]Failure{},
		chatFail:   map[int64]Failure{},
		threadFail: map[[2]int64]Failure{},
		groupSent:  map[int64][]time.Time{},
		now:        time.Now,
		nextUpdate: 1000,
	}
	for _, o := range opts {
		o(s)
	}
	hs := httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = hs.URL
	t.Cleanup(func() {
		s.mu.Lock()
		if s.poll != nil {
			close(s.poll.cancel)
			s.poll = nil
		}
		s.mu.Unlock()
		hs.Close()
	})
	return s
}

// notify wakes waiters; the caller holds s.mu.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Calls returns a copy of every recorded call, optionally only of methods.
func (s *Server) Calls(methods ...string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return filter(s.calls, methods)
}

func filter(calls []Call, methods []string) []Call {
	out := []Call{}
	for _, c := range calls {
		if len(methods) == 0 || slices.Contains(methods, c.Method) {
			out = append(out, c)
		}
	}
	return out
}

// WaitCalls blocks until at least n calls of method were recorded (any method
// when method is ""), or ctx ends, and returns them.
func (s *Server) WaitCalls(ctx context.Context, method string, n int) ([]Call, error) {
	var methods []string
	if method != "" {
		methods = []string{method}
	}
	for {
		s.mu.Lock()
		got, ch := filter(s.calls, methods), s.changed
		s.mu.Unlock()
		if len(got) >= n {
			return got, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return got, ctx.Err()
		}
	}
}

// WaitPolling blocks until a getUpdates request is in flight (registered
// as the one a newer request would end with 409), or ctx ends. A recorded
// call is not enough: the request may not have been registered yet.
func (s *Server) WaitPolling(ctx context.Context) error {
	for {
		s.mu.Lock()
		polling, ch := s.poll != nil, s.changed
		s.mu.Unlock()
		if polling {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitAbandoned blocks until n delayed calls were abandoned by their
// client (a timeout or budget on the caller's side), or ctx ends.
func (s *Server) WaitAbandoned(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, ch := s.abandoned, s.changed
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Commands is the default menu: the default scope's, for every language
// no menu of its own is for.
func (s *Server) Commands() []models.BotCommand { return s.CommandsFor("", "default") }

// CommandsFor is the menu setMyCommands set for language_code lang (""
// the default) and scope ("default", "all_group_chats", ...).
func (s *Server) CommandsFor(lang, scope string) []models.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]models.BotCommand(nil), s.commands[menu{lang, scope}]...)
}

// menu names one of setMyCommands' menus.
type menu struct{ lang, scope string }

// SetWebhookState sets the webhook as if setWebhook had been called.
func (s *Server) SetWebhookState(url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webhookURL = url
}

// methodOf splits /bot<token>/<method>.
func methodOf(path string) (token, method string, ok bool) {
	rest, ok := strings.CutPrefix(path, "/bot")
	if !ok {
		return "", "", false
	}
	token, method, ok = strings.Cut(rest, "/")
	return token, method, ok && method != ""
}
