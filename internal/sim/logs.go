package sim

import (
	"context"
	"log/slog"
	"sync"
)

// logSink keeps what the checkers read from the bot's logs: the reasons
// it gave for each update it did not answer, and how often each warning
// came. A run logs hundreds of thousands of lines; nothing else is kept.
type logSink struct {
	mu      sync.Mutex
	reasons map[int64][]string // update_id -> its Info-and-above messages
	counts  map[string]int     // Warn-and-above message -> how often
	retakes map[string]int     // a timer's key -> how often the engine took it over (timerRetaken)
}

func newLogSink() *logSink {
	return &logSink{reasons: map[int64][]string{}, counts: map[string]int{}, retakes: map[string]int{}}
}

func (s *logSink) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (s *logSink) Handle(_ context.Context, r slog.Record) error {
	var id int64
	var timerKey string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "update_id":
			id = a.Value.Int64()
		case "key":
			timerKey = a.Value.String()
		}
		return true
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != 0 {
		s.reasons[id] = append(s.reasons[id], r.Message)
	}
	if r.Message == timerRetaken {
		s.retakes[timerKey]++
	}
	if r.Level >= slog.LevelWarn {
		s.counts[r.Message]++
	}
	return nil
}

func (s *logSink) WithAttrs([]slog.Attr) slog.Handler { return s }
func (s *logSink) WithGroup(string) slog.Handler      { return s }

// said reports whether the bot logged msg about update id.
func (s *logSink) said(id int64, msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.reasons[id] {
		if m == msg {
			return true
		}
	}
	return false
}

// count is how often msg was logged as a warning or error.
func (s *logSink) count(msg string) int { s.mu.Lock(); defer s.mu.Unlock(); return s.counts[msg] }

// timerRetakes is how often the engine took over the timer of key from a
// run that recorded no end.
func (s *logSink) timerRetakes(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.retakes[key]
}
