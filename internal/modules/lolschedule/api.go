package lolschedule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// The getSchedule document of the LoL esports "persisted gateway".
type scheduleDoc struct {
	Data struct {
		Schedule struct {
			Pages struct {
				Older string `json:"older"`
				Newer string `json:"newer"`
			} `json:"pages"`
			Events []eventDoc `json:"events"`
		} `json:"schedule"`
	} `json:"data"`
}

type eventDoc struct {
	StartTime time.Time `json:"startTime"`
	State     string    `json:"state"` // unstarted | inProgress | completed
	Type      string    `json:"type"`  // match | show
	BlockName string    `json:"blockName"`
	League    struct {
		Name string `json:"name"`
		Slug string `json:"slug"`
	} `json:"league"`
	Match *struct {
		ID    string `json:"id"`
		Teams []struct {
			Name   string `json:"name"`
			Code   string `json:"code"`
			Result *struct {
				Outcome  string `json:"outcome"` // win | loss | ""
				GameWins int    `json:"gameWins"`
			} `json:"result"`
		} `json:"teams"`
		Strategy struct {
			Type  string `json:"type"`
			Count int    `json:"count"`
		} `json:"strategy"`
	} `json:"match"`
}

// apiError is a failed call to the schedule API.
type apiError struct {
	status int
	err    error
}

func (e *apiError) Error() string {
	if e.err != nil {
		return "lolesports API: " + e.err.Error()
	}
	return fmt.Sprintf("lolesports API: HTTP %d", e.status)
}

func (e *apiError) Unwrap() error { return e.err }

// api calls getSchedule.
type api struct {
	base string // e.g. https://esports-api.lolesports.com/persisted/gw
	key  string
	lang string
	http *http.Client
}

// fetchPage returns one raw page ("" = the current page).
func (a *api) fetchPage(ctx context.Context, token string) ([]byte, error) {
	q := url.Values{"hl": {a.lang}}
	if token != "" {
		q.Set("pageToken", token)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/getSchedule?"+q.Encode(), nil)
	if err != nil {
		return nil, &apiError{err: err}
	}
	req.Header.Set("x-api-key", a.key)
	req.Header.Set("Accept", "application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, &apiError{err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, &apiError{err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &apiError{status: resp.StatusCode}
	}
	var probe scheduleDoc
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, &apiError{err: fmt.Errorf("undecodable schedule: %w", err)}
	}
	return body, nil
}
