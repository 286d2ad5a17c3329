// Package metrics is the bot's one metric set, defined here once and fed by
// the core, the Telegram client, the store wrapper and the cron dispatch (never
// by a module). Where the numbers go is a Sink: Prometheus text on the
// container (package prom), CloudWatch Embedded Metric Format lines on Lambda
// (package emf). Label values are bounded by construction: command, job and
// method names come from the code, outcomes from the constants below; no user
// id, chat id or free text is ever a label.
//
// A nil *Metrics records nothing, so every part works without metrics.
package metrics

import "time"

// Sink receives the measurements.
type Sink interface {
	// Add adds n to a counter.
	Add(s Series, n float64)
	// Observe records one value (seconds) in a histogram.
	Observe(s Series, seconds float64)
	// Set sets a gauge.
	Set(s Series, v float64)
}

// Label is one label of a series.
type Label struct{ Name, Value string }

// Series is a metric and its label values: a comparable value, so that a
// sink can key its series by it without building a string per call.
type Series struct {
	Name   string
	Labels [3]Label // the first N are set
	N      int
}

// LabelList is the series' labels.
func (s Series) LabelList() []Label { return s.Labels[:s.N] }

func series(name string, labels ...Label) Series {
	s := Series{Name: name, N: len(labels)}
	copy(s.Labels[:], labels)
	return s
}

// The metric set. Names follow Prometheus conventions; the EMF sink uses
// them as they are.
const (
	Updates       = "miti99bot_updates_total"                   // {kind, outcome}
	UpdateSeconds = "miti99bot_update_duration_seconds"         // {command}: histogram
	BotAPICalls   = "miti99bot_botapi_calls_total"              // {method, result}
	BotAPIWait    = "miti99bot_botapi_flood_wait_seconds_total" // {method}: what 429s asked to wait
	StoreOps      = "miti99bot_store_operations_total"          // {backend, op, outcome}
	CronRuns      = "miti99bot_cron_runs_total"                 // {job, outcome}
	DeployNotices = "miti99bot_deploy_notices_total"            // {outcome}
	InitSeconds   = "miti99bot_init_duration_seconds"           // gauge: this process's start-up (a Lambda cold start)
	ClockSkew     = "miti99bot_clock_skew_seconds"              // gauge: this host's clock against the Bot API's, at start
	PollerBacklog = "miti99bot_poller_backlog"                  // {state}: gauge, the updates the poller holds
	DamagedReads  = "miti99bot_store_damaged_reads_total"       // {namespace}: reads of a stored value that cannot be decoded

	// The newest snapshot in BACKUP_DIR (container): when it was taken
	// (its age is time() minus this), its size and its items.
	BackupTime  = "miti99bot_backup_last_success_timestamp_seconds"
	BackupBytes = "miti99bot_backup_size_bytes"
	BackupItems = "miti99bot_backup_items"
)

// Help is each metric's # HELP text.
var Help = map[string]string{
	Updates:       "Telegram updates by kind and outcome: handled, duplicate, in_flight, failed (it comes back), dropped (given up), ignored.",
	UpdateSeconds: "Time to handle one update, by command or callback prefix.",
	BotAPICalls:   "Telegram Bot API calls by method and result: ok, flood (429), blocked (403), error.",
	BotAPIWait:    "Seconds the Bot API's 429 answers asked to wait, by method.",
	StoreOps:      "Key-value store operations by backend, operation and outcome: ok, not_found, conflict (a lost compare-and-swap or conditional delete), error.",
	CronRuns:      "Cron runs by job and outcome: ran, skipped, failed, retried, caught_up; every outcome of every enabled job starts at 0.",
	DeployNotices: "Deploy notices to the owner by outcome: sent, skipped, failed.",
	InitSeconds:   "Seconds this process took from start to ready.",
	BackupTime:    "When the newest snapshot in BACKUP_DIR was taken, in Unix seconds (its age is time() minus this).",
	BackupBytes:   "The newest snapshot's size in bytes.",
	BackupItems:   "How many items the newest snapshot holds.",
	PollerBacklog: "The updates the container's poller holds, by state: fetched (in memory; Telegram keeps them), parked (in the store, in their chat's order), running, retrying.",
	DamagedReads:  "Reads of a stored value that cannot be decoded (a damaged item), by namespace: each is logged naming the item, and botctl store scan lists them (docs/backup.md).",
	ClockSkew:     "How far, at least, this host's clock was from the Telegram Bot API's at start, in seconds (positive: behind it; 0 when the Date header's one second cannot tell them apart).",
}

// Update outcomes.
const (
	Handled   = "handled"   // run and recorded
	Duplicate = "duplicate" // handled before: skipped
	InFlight  = "in_flight" // being handled elsewhere: not acknowledged yet
	Failed    = "failed"    // the run failed: it comes back, or (a press, an unreadable value) was answered with an apology
	Dropped   = "dropped"   // failed too often: given up
	Ignored   = "ignored"   // nothing of this bot's (not a command, another bot's)
)

// Bot API results.
const (
	OK      = "ok"
	Flood   = "flood"   // 429
	Blocked = "blocked" // 403: the user blocked the bot or left
	Error   = "error"   // anything else
)

// Store outcomes (OK and Error as above).
const (
	NotFound = "not_found"
	Conflict = "conflict" // a CompareAndSwap that lost: the update loop tries again
)

// Deploy notice outcome (Skipped and Failed as elsewhere).
const Sent = "sent"

// Cron outcomes.
const (
	Ran      = "ran"
	Skipped  = "skipped"   // the slot was run elsewhere, or the job is disabled
	Retried  = "retried"   // a failed run tried again (container)
	CaughtUp = "caught_up" // a slot missed while down, run late (container)
)

// UpdateOutcomes are the outcomes an update is counted under.
var UpdateOutcomes = []string{Handled, Duplicate, InFlight, Failed, Dropped, Ignored}

// BotAPIResults are the results a Bot API call is counted under.
var BotAPIResults = []string{OK, Flood, Blocked, Error}

// CronOutcomes are the outcomes a cron run is counted under.
var CronOutcomes = []string{Ran, Skipped, Failed, Retried, CaughtUp}

// Poller backlog states: where an update the poller holds is.
const (
	BacklogFetched  = "fetched"  // in memory only: Telegram keeps it until it is parked or handled
	BacklogParked   = "parked"   // in the store, waiting its turn in its chat's order
	BacklogRunning  = "running"  // its handler runs
	BacklogRetrying = "retrying" // failed; waits out a back-off or flood wait
)

// Metrics records the metric set into a sink.
type Metrics struct{ sink Sink }

// New records into s.
func New(s Sink) *Metrics { return &Metrics{sink: s} }

func (m *Metrics) add(s Series, n float64) {
	if m != nil {
		m.sink.Add(s, n)
	}
}

// Update counts one update by its kind (message, callback_query, ...) and outcome.
func (m *Metrics) Update(kind, outcome string) {
	m.add(series(Updates, Label{"kind", kind}, Label{"outcome", outcome}), 1)
}

// Handling records how long one command (or callback prefix) took.
func (m *Metrics) Handling(command string, d time.Duration) {
	if m != nil {
		m.sink.Observe(series(UpdateSeconds, Label{"command", command}), d.Seconds())
	}
}

// BotAPI counts one Bot API call by method and result; wait is what a 429
// asked to wait (0 otherwise).
func (m *Metrics) BotAPI(method, result string, wait time.Duration) {
	m.add(series(BotAPICalls, Label{"method", method}, Label{"result", result}), 1)
	if wait > 0 {
		m.add(series(BotAPIWait, Label{"method", method}), wait.Seconds())
	}
}

// Store counts one store operation.
func (m *Metrics) Store(backend, op, outcome string) {
	m.add(series(StoreOps, Label{"backend", backend}, Label{"op", op}, Label{"outcome", outcome}), 1)
}

// Damaged counts one read of a damaged item in namespace.
func (m *Metrics) Damaged(namespace string) {
	m.add(series(DamagedReads, Label{"namespace", namespace}), 1)
}

// Cron counts one cron run by job and outcome.
func (m *Metrics) Cron(job, outcome string) {
	m.add(series(CronRuns, Label{"job", job}, Label{"outcome", outcome}), 1)
}

// DeclareCron shows every outcome of each job at zero before any run, for
// a sink that is scraped: increase() finds nothing in a series that does
// not exist yet and cannot see its first count, so without this an alert on
// "the push has not run in a day" stays silent after a restart until the
// push runs. Not for EMF, where a zero is a metric CloudWatch stores and
// bills.
func (m *Metrics) DeclareCron(jobs ...string) {
	for _, job := range jobs {
		for _, outcome := range CronOutcomes {
			m.add(series(CronRuns, Label{"job", job}, Label{"outcome", outcome}), 0)
		}
	}
}

// DeclareDamaged shows the damaged reads of each namespace at zero, as
// DeclareCron does for jobs: the first damaged item after a restart is
// then seen by increase().
func (m *Metrics) DeclareDamaged(namespaces ...string) {
	for _, ns := range namespaces {
		m.add(series(DamagedReads, Label{"namespace", ns}), 0)
	}
}

// DeclareUpdates shows every outcome of each update kind at zero before
// any update, as DeclareCron does for jobs: a burst of failures right
// after a restart then counts whole.
func (m *Metrics) DeclareUpdates(kinds ...string) {
	for _, kind := range kinds {
		for _, outcome := range UpdateOutcomes {
			m.add(series(Updates, Label{"kind", kind}, Label{"outcome", outcome}), 0)
		}
	}
}

// DeclareBotAPI shows every result of each Bot API method at zero before
// any call, as DeclareCron does for jobs: a poller that never gets an
// answer (a token refused from its start) then shows a getUpdates "ok"
// that does not grow, which an alert can see.
func (m *Metrics) DeclareBotAPI(methods ...string) {
	for _, method := range methods {
		for _, result := range BotAPIResults {
			m.add(series(BotAPICalls, Label{"method", method}, Label{"result", result}), 0)
		}
	}
}

// DeployNotice counts a deploy notice: sent, skipped (sent by another
// instance of the build, or nobody to tell) or failed.
func (m *Metrics) DeployNotice(outcome string) {
	m.add(series(DeployNotices, Label{"outcome", outcome}), 1)
}

// Init records how long this process took to get ready.
func (m *Metrics) Init(d time.Duration) {
	if m != nil {
		m.sink.Set(series(InitSeconds), d.Seconds())
	}
}

// ClockOff records how far this host's clock is at least from the Bot
// API's (positive: behind it).
func (m *Metrics) ClockOff(d time.Duration) {
	if m != nil {
		m.sink.Set(series(ClockSkew), d.Seconds())
	}
}

// PollerBacklog sets how many updates the poller holds in one state
// (BacklogFetched, ...).
func (m *Metrics) PollerBacklog(state string, n int) {
	if m != nil {
		m.sink.Set(series(PollerBacklog, Label{"state", state}), float64(n))
	}
}

// Backup records the newest snapshot: when it was taken, its size in
// bytes and how many items it holds.
func (m *Metrics) Backup(at time.Time, bytes, items int64) {
	if m != nil {
		m.sink.Set(series(BackupTime), float64(at.UnixNano())/1e9)
		m.sink.Set(series(BackupBytes), float64(bytes))
		m.sink.Set(series(BackupItems), float64(items))
	}
}
