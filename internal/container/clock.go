package container

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/miti99bot/miti99bot/internal/metrics"
)

// clockTolerance is how far this host's clock may be from the Bot API's
// before a warning: the stores' "newer wins" compares stamps written by
// different hosts' clocks, and a cron slot is a minute of this one.
const clockTolerance = time.Second

// clockCheckTimeout bounds the one request.
const clockCheckTimeout = 10 * time.Second

// checkClock compares this host's clock with the Date header of the Bot
// API's answer to a request for its root (no token: nothing secret is
// sent), once at start. A Date has whole seconds and the answer takes a
// round trip, so only what is certain counts: the skew lies between the
// two bounds below, and a warning needs the whole range past the
// tolerance. The gauge gets the certain part (0 when none is).
func checkClock(ctx context.Context, apiURL string, now func() time.Time, log *slog.Logger, m *metrics.Metrics) {
	ctx, cancel := context.WithTimeout(ctx, clockCheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, apiURL, nil)
	if err != nil {
		log.Info("clock not checked against the Bot API's", "err", err)
		return
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	before := now()
	resp, err := client.Do(req)
	after := now()
	if err != nil {
		log.Info("clock not checked against the Bot API's", "err", err)
		return
	}
	resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		log.Info("clock not checked: the Bot API's answer has no valid Date header")
		return
	}
	// The Bot API's clock read date..date+1s somewhere between before and
	// after on ours: how far it is ahead of ours (this host behind).
	low, high := date.Sub(after), date.Add(time.Second).Sub(before)
	var certain time.Duration
	switch {
	case low > 0:
		certain = low
	case high < 0:
		certain = high
	}
	m.ClockOff(certain)
	switch {
	case certain > clockTolerance:
		log.Warn("clock skew: this host's clock is behind the Bot API's; newer-wins and cron slots trust it: fix the host's time (NTP)",
			"behind_by_at_least", certain.Round(time.Millisecond).String())
	case certain < -clockTolerance:
		log.Warn("clock skew: this host's clock is ahead of the Bot API's; newer-wins and cron slots trust it: fix the host's time (NTP)",
			"ahead_by_at_least", (-certain).Round(time.Millisecond).String())
	default:
		log.Info("clock checked against the Bot API's", "off_by_at_most", max(-low, high).Round(time.Millisecond).String())
	}
}
