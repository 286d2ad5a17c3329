package cron

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/core"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// statusPrefix keys the record of each job in the core's namespace.
const statusPrefix = "cronjob:"

// maxErrorText bounds the error a status keeps.
const maxErrorText = 500

// JobStatus is what an operator reads of a job (`botctl cron status`): its
// last success and failure, the attempts at its latest slot, its next fire.
type JobStatus struct {
	Job         string   `json:"job"`
	LastSuccess *RunInfo `json:"last_success,omitempty"`
	LastFailure *RunInfo `json:"last_failure,omitempty"`
	// Attempts is how many runs the latest slot took (1: first time).
	Attempts int       `json:"attempts"`
	NextFire time.Time `json:"next_fire"`
}

// RunInfo is one run of a slot.
type RunInfo struct {
	Slot  time.Time `json:"slot"`
	At    time.Time `json:"at"`
	Error string    `json:"error,omitempty"`
}

// report records a run in the job's status and returns it.
func (d *Dispatcher) report(ctx context.Context, job core.CronJob, slot time.Time, attempts int, runErr error) (JobStatus, error) {
	now := d.now().UTC()
	var out JobStatus
	err := storage.UpdateJSON(ctx, d.core, statusPrefix+job.Name, func(s *JobStatus, _ bool) (bool, error) {
		s.Job, s.Attempts, s.NextFire = job.Name, attempts, job.Next(now)
		run := &RunInfo{Slot: slot, At: now}
		if runErr != nil {
			run.Error = truncate(runErr.Error(), maxErrorText)
			s.LastFailure = run
		} else {
			s.LastSuccess = run
		}
		out = *s
		return true, nil
	})
	return out, err
}

// attrs are the status as log attributes, but for the job's name: the
// dispatch's logger names it already, and a key twice in one JSON line is
// invalid for many log pipelines.
func (s JobStatus) attrs() []any {
	out := []any{"attempts", s.Attempts, "next_fire", s.NextFire.Format(time.RFC3339)}
	if s.LastSuccess != nil {
		out = append(out, "last_success", s.LastSuccess.Slot.Format(time.RFC3339))
	}
	if s.LastFailure != nil {
		out = append(out, "last_failure", s.LastFailure.Slot.Format(time.RFC3339), "last_error", s.LastFailure.Error)
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}

// Statuses is every enabled job's status, by name: its record in the
// core's namespace, or, for a job that never ran here (a fresh deploy),
// one with no run; each enabled job's next fire is from now, as a record's
// may be long past. Records of jobs no longer enabled are kept: they are
// what ran against this store.
func Statuses(ctx context.Context, store storage.KVStore, enabled []core.CronJob, now time.Time) ([]JobStatus, error) {
	keys, err := store.List(ctx, statusPrefix)
	if err != nil {
		return nil, err
	}
	byJob := make(map[string]JobStatus, len(keys)+len(enabled))
	for _, k := range keys {
		var s JobStatus
		if err := store.GetJSON(ctx, k, &s); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			return nil, err
		}
		byJob[s.Job] = s
	}
	for _, j := range enabled {
		s := byJob[j.Name]
		s.Job, s.NextFire = j.Name, j.Next(now)
		byJob[j.Name] = s
	}
	out := make([]JobStatus, 0, len(byJob))
	for _, s := range byJob {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Job < out[j].Job })
	return out, nil
}
