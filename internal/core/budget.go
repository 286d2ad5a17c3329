package core

import "time"

// UpdateBudget bounds the handling of one update. Telegram gives up on a
// webhook answer after about 60 s and delivers the update again, so the
// answer (a 5xx for an update that overran, so that it is redelivered) must
// come well before that. Invariants: UpdateBudget < Telegram's ~60 s <
// dedupStale, and the Lambda function's timeout exceeds UpdateBudget.
const UpdateBudget = 45 * time.Second

// defaultBudget is UpdateBudget, shorter in testkit builds (with their
// shorter dedupStale), so a run always ends before its claim turns stale.
var defaultBudget = UpdateBudget

// recordBudget bounds one try of a write after an update's run (its
// record, a command hook's count); recordTries tries are made, so a slow
// store gets more than one chance. UpdateBudget + RecordTime stays below
// dedupStale and the Lambda timeout.
const (
	recordBudget = 5 * time.Second
	recordTries  = 3
	// RecordTime bounds recording an outcome, every try and pause between.
	RecordTime = recordTries*recordBudget + time.Second
)

// notRecorded is the log line of a run whose outcome did not land: the
// simulation excuses the repeated reply its redelivery may send by it.
const notRecorded = "could not record the update's outcome"
