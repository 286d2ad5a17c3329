package cron

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/miti99bot/miti99bot/internal/redact"
)

// The three places an operator reads the jobs' status (botctl cron status,
// GET /cron/status, the owner's /cron_status) say which store they read: a
// table from the wrong store (botctl's own empty memory, a test table)
// reads like "nothing has run".

// StorePrefix starts every status report: "store: <the store>".
const StorePrefix = "store: "

// NoRuns is what a report says when no job is enabled and the store holds
// no job's record.
const NoRuns = "no cron job is enabled, and none has run against this store"

// Statuses is every enabled job's status, and any other job's record, from
// the dispatcher's store.
func (d *Dispatcher) Statuses(ctx context.Context) ([]JobStatus, error) {
	return Statuses(ctx, d.core, d.reg.Crons(), d.now())
}

// Redacted is statuses with every secret masked out of their errors: a
// job's error may quote what it was given (a URL with a key), and the
// reports leave the store for a chat, an HTTP answer or a terminal.
func Redacted(statuses []JobStatus, secrets ...string) []JobStatus {
	set := redact.NewSet(secrets...)
	out := slices.Clone(statuses)
	for i, s := range out {
		if s.LastFailure != nil {
			f := *s.LastFailure
			f.Error = set.String(f.Error)
			out[i].LastFailure = &f
		}
	}
	return out
}

// WriteTable writes the statuses read from store as botctl and the HTTP
// route show them: the store's line, then one row per job.
func WriteTable(w io.Writer, store string, statuses []JobStatus) error {
	fmt.Fprintln(w, StorePrefix+store)
	if len(statuses) == 0 {
		_, err := fmt.Fprintln(w, NoRuns)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tLAST SUCCESS\tLAST FAILURE\tATTEMPTS\tNEXT FIRE")
	for _, s := range statuses {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", s.Job, runOf(s.LastSuccess), runOf(s.LastFailure), s.Attempts, nextFire(s.NextFire))
	}
	return tw.Flush()
}

// ChatText is the statuses read from store as a chat message: one block
// per job, which a phone shows better than a wide table.
func ChatText(store string, statuses []JobStatus) string {
	var b strings.Builder
	b.WriteString("Cron jobs, from the " + store + ":")
	if len(statuses) == 0 {
		b.WriteString("\n" + NoRuns + ".")
	}
	for _, s := range statuses {
		fmt.Fprintf(&b, "\n\n%s\nlast success: %s\nlast failure: %s\nattempts at the latest slot: %d\nnext fire: %s",
			s.Job, runOf(s.LastSuccess), runOf(s.LastFailure), s.Attempts, nextFire(s.NextFire))
	}
	return b.String()
}

// nextFire is "never" for the zero time: a schedule with no next fire (or a
// record without one), not year 1.
func nextFire(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Format(time.RFC3339)
}

// runOf is a run as "slot", or "slot (error)" for a failure; "never" for
// none.
func runOf(r *RunInfo) string {
	switch {
	case r == nil:
		return "never"
	case r.Error != "":
		return r.Slot.Format(time.RFC3339) + " (" + r.Error + ")"
	}
	return r.Slot.Format(time.RFC3339)
}
