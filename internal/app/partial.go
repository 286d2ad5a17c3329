package app

import "errors"

// ErrPartial marks a cron run that did part of its work and left the rest
// for the job's next run: a job returns it wrapped, naming what it left.
// The run is recorded partial (a WARN line; the job's status shows it as
// its last failure), neither done nor failed: its slot is not run again.
var ErrPartial = errors.New("partial run: the rest waits for the next run")
