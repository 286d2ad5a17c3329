// Package cron runs the modules' scheduled jobs. Dispatch is the one entry
// point for every trigger (the in-process scheduler, an EventBridge Scheduler
// event in Lambda, the manual HTTP route), and it makes a scheduled slot run
// to success once, whoever fires it: before running, a fire claims
// (job, scheduled time) in the core's namespace with CAS.
package cron

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/claim"
	"github.com/miti99bot/miti99bot/internal/core"

	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// staleAfter: a claim this old belongs to a run that crashed (the job's own
// timeout has long passed), so the slot may be claimed again.
func staleAfter(job core.CronJob) time.Duration { return 2 * job.RunTimeout() }

// slotsPerJob bounds the records a job leaves: one per minute of the day.
// A record for an older scheduled time in the same slot is simply replaced.
const slotsPerJob = 24 * 60

// Bounds of the slot a manual fire (the HTTP route, botctl cron run) may
// name: a slot claim is kept per minute of the day, so a slot far in the
// future would stand for every later fire of that minute until then, and
// one older than a day is another day's record.
const (
	manualPast   = 24 * time.Hour
	manualFuture = time.Minute // clock skew between the caller and the bot
)

// ErrSlotOutOfRange: a manual fire named a slot outside its bounds.
var ErrSlotOutOfRange = errors.New("cron: the scheduled time must be within the last 24 hours")

// CheckManualSlot refuses a slot a manual fire may not name.
func CheckManualSlot(slot, now time.Time) error {
	if slot.Before(now.Add(-manualPast)) || slot.After(now.Add(manualFuture)) {
		return ErrSlotOutOfRange
	}
	return nil
}

// ErrUnknownJob is returned for a name no module of the catalogue has.
var ErrUnknownJob = errors.New("cron: unknown job")

// Outcome says what a fire did.
type Outcome string

const (
	Ran      Outcome = "ran"      // this fire ran the job to success
	Skipped  Outcome = "skipped"  // another fire runs or ran this slot
	Disabled Outcome = "disabled" // the job's module is not enabled (MODULES)
	Partial  Outcome = "partial"  // this fire ran the job, which left part of its work (app.ErrPartial)
)

// Dispatcher runs jobs of one registry over the core's store.
type Dispatcher struct {
	reg     *core.Registry
	core    storage.KVStore
	log     *slog.Logger
	now     func() time.Time
	metrics *metrics.Metrics
}

// DispatcherOption configures NewDispatcher.
type DispatcherOption func(*Dispatcher)

// WithMetrics counts every run by job and outcome into m.
func WithMetrics(m *metrics.Metrics) DispatcherOption { return func(d *Dispatcher) { d.metrics = m } }

// NewDispatcher runs reg's jobs, claiming their slots in core (the core's
// namespace, storage.CoreNamespace), with the given logger and clock.
func NewDispatcher(reg *core.Registry, core storage.KVStore, log *slog.Logger, now func() time.Time, opts ...DispatcherOption) *Dispatcher {
	d := &Dispatcher{reg: reg, core: core, log: log, now: now}
	for _, o := range opts {
		o(d)
	}
	return d
}

// Dispatch claims (name, scheduled) and runs the job if the claim is won,
// and counts the outcome.
func (d *Dispatcher) Dispatch(ctx context.Context, name string, scheduled time.Time) (Outcome, error) {
	out, err := d.dispatch(ctx, name, scheduled)
	switch {
	case errors.Is(err, ErrUnknownJob):
		d.metrics.Cron("unknown", metrics.Failed) // a caller's name is not a label
	case err != nil:
		d.metrics.Cron(name, metrics.Failed)
	case out == Partial: // not finished: counted with the failures
		d.metrics.Cron(name, metrics.Failed)
	case out == Ran:
		d.metrics.Cron(name, metrics.Ran)
	default:
		d.metrics.Cron(name, metrics.Skipped)
	}
	return out, err
}

type slotRecord struct {
	Job       string `json:"job"`
	Scheduled int64  `json:"scheduled"` // unix seconds of the slot
	State     string `json:"state"`     // running | done | failed
	Attempts  int    `json:"attempts"`
	At        int64  `json:"at"` // unix nanos of the last change
}

func slotKey(job string, scheduled time.Time) string {
	minuteOfDay := (scheduled.Unix() / 60) % slotsPerJob
	return fmt.Sprintf("cron:%s:%d", job, minuteOfDay)
}

// dispatch claims (name, scheduled) and runs the job if the claim is won.
// A job error is returned, after the slot is marked failed so that a retry
// (Scheduler's, or the next manual call) can claim it again.
func (d *Dispatcher) dispatch(ctx context.Context, name string, scheduled time.Time) (Outcome, error) {
	job, ok := d.reg.CronByName(name)
	if !ok {
		if module, off := d.reg.DisabledJob(name); off {
			// A schedule that outlives its module (the template creates it
			// whatever MODULES says): nothing to run, nothing to retry.
			d.log.Info("cron skipped: its module is disabled", "cron", name, "module", module)
			return Disabled, nil
		}
		return "", fmt.Errorf("%w: %q", ErrUnknownJob, name)
	}
	// A slot is a whole minute (the schedules' granularity): two fires in
	// the same minute are one slot, whatever their seconds.
	scheduled = scheduled.UTC().Truncate(time.Minute)
	log := d.log.With("cron", name, "module", job.Module, "scheduled", scheduled.Format(time.RFC3339))
	key := slotKey(name, scheduled)
	won, attempts, err := d.claim(ctx, key, job, scheduled)
	if err != nil {
		log.Error("cron failed: its slot cannot be claimed", "err", err)
		return "", fmt.Errorf("cron %s: claim slot: %w", name, err)
	}
	if !won {
		log.Info("cron skipped: slot already claimed")
		return Skipped, nil
	}

	log.Info("cron triggered", "attempt", attempts)
	start := d.now()
	runErr := d.run(ctx, job, scheduled)
	dur := d.now().Sub(start)
	// A partial run's slot is done: its next slot does the rest.
	state, partial := "done", errors.Is(runErr, app.ErrPartial)
	switch {
	case partial:
		log.Warn("cron partial", "attempt", attempts, "duration", dur, "err", runErr)
	case runErr != nil:
		state = "failed"
		log.Error("cron failed", "attempt", attempts, "duration", dur, "err", runErr)
	default:
		log.Info("cron done", "attempt", attempts, "duration", dur)
	}
	// Record the outcome even if the trigger's context is ending.
	rctx := context.WithoutCancel(ctx)
	if err := d.settle(rctx, key, name, scheduled, state); err != nil {
		log.Warn("cron outcome not recorded", "err", err)
	}
	if st, err := d.report(rctx, job, scheduled, attempts, runErr); err != nil {
		log.Warn("cron job status not recorded", "err", err)
	} else {
		log.Info("cron job status", st.attrs()...)
	}
	switch {
	case partial:
		return Partial, nil
	case runErr != nil:
		return "", fmt.Errorf("cron %s: %w", name, runErr)
	}
	return Ran, nil
}

// run hands the job its slot, gives it its own timeout and turns a panic
// into an error.
func (d *Dispatcher) run(ctx context.Context, job core.CronJob, slot time.Time) (err error) {
	ctx, cancel := context.WithTimeout(ctx, job.RunTimeout())
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			d.log.Error("cron panicked", "cron", job.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return job.Handler(ctx, app.CronRun{Slot: slot})
}

// claim wins the slot when it is free: never claimed, claimed for an older
// scheduled time, failed, or held by a run that went stale.
func (d *Dispatcher) claim(ctx context.Context, key string, job core.CronJob, scheduled time.Time) (bool, int, error) {
	name := job.Name
	claimed, attempts := false, 0
	err := storage.Update(ctx, d.core, key, func(cur []byte) ([]byte, error) {
		claimed = false // this may run again after a lost race
		var rec slotRecord
		if cur != nil && json.Unmarshal(cur, &rec) != nil {
			rec = slotRecord{}
		}
		next := slotRecord{Job: name, Scheduled: scheduled.Unix(), State: "running", Attempts: 1, At: d.now().UnixNano()}
		if cur != nil && rec.Scheduled == scheduled.Unix() {
			if claim.Judge(claim.Parse(rec.State), rec.At, d.now(), staleAfter(job)) != claim.Take {
				return nil, nil
			}
			next.Attempts = rec.Attempts + 1
		} else if cur != nil && rec.Scheduled > scheduled.Unix() {
			return nil, nil // a late fire of a slot long since replaced
		}
		claimed, attempts = true, next.Attempts
		return json.Marshal(next)
	})
	return claimed && err == nil, attempts, err
}

// settle records the run's outcome on the slot it claimed.
func (d *Dispatcher) settle(ctx context.Context, key, name string, scheduled time.Time, state string) error {
	return storage.Update(ctx, d.core, key, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, fmt.Errorf("cron %s: %w: its slot vanished", name, storage.ErrNotFound)
		}
		var rec slotRecord
		if json.Unmarshal(cur, &rec) != nil || rec.Scheduled != scheduled.Unix() {
			return nil, nil // replaced by a newer slot
		}
		rec.State, rec.At = state, d.now().UnixNano()
		return json.Marshal(rec)
	})
}
