package cron

import (
	"bytes"
	"testing"
	"time"
)

// Every report names the store it read first: a table from the wrong store
// must not read like "nothing has run".
func TestEveryReportNamesTheStoreItRead(t *testing.T) {
	slot := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	ran := []JobStatus{{
		Job: "lolschedule_daily_push", Attempts: 2, NextFire: slot.Add(24 * time.Hour),
		LastSuccess: &RunInfo{Slot: slot, At: slot.Add(2 * time.Minute)},
		LastFailure: &RunInfo{Slot: slot, At: slot.Add(time.Minute), Error: "esports API: 503"},
	}, {Job: "leap_day", Attempts: 1, LastSuccess: &RunInfo{Slot: slot, At: slot}}}
	tests := []struct {
		name        string
		statuses    []JobStatus
		table, chat string
	}{
		{"no job and no record says so of that store", nil,
			"store: bolt file /data/miti99bot.db\nno cron job is enabled, and none has run against this store\n",
			"Cron jobs, from the bolt file /data/miti99bot.db:\nno cron job is enabled, and none has run against this store."},
		{"each job's runs, failures with their error, and next fire (never for none of them)", ran,
			"store: bolt file /data/miti99bot.db\n" +
				"JOB                     LAST SUCCESS          LAST FAILURE                             ATTEMPTS  NEXT FIRE\n" +
				"lolschedule_daily_push  2026-11-29T01:00:00Z  2026-11-29T01:00:00Z (esports API: 503)  2         2026-11-30T01:00:00Z\n" +
				"leap_day                2026-11-29T01:00:00Z  never                                    1         never\n",
			"Cron jobs, from the bolt file /data/miti99bot.db:\n\n" +
				"lolschedule_daily_push\nlast success: 2026-11-29T01:00:00Z\nlast failure: 2026-11-29T01:00:00Z (esports API: 503)\n" +
				"attempts at the latest slot: 2\nnext fire: 2026-11-30T01:00:00Z\n\n" +
				"leap_day\nlast success: 2026-11-29T01:00:00Z\nlast failure: never\nattempts at the latest slot: 1\nnext fire: never"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var table bytes.Buffer
			if err := WriteTable(&table, "bolt file /data/miti99bot.db", tt.statuses); err != nil || table.String() != tt.table {
				t.Fatalf("table, %v:\n%s\nwant:\n%s", err, table.String(), tt.table)
			}
			if chat := ChatText("bolt file /data/miti99bot.db", tt.statuses); chat != tt.chat {
				t.Fatalf("chat:\n%s\nwant:\n%s", chat, tt.chat)
			}
		})
	}
}

// The reports leave the store (a chat, an HTTP answer, a terminal): a
// secret a job's error quotes is masked, and the records read stay as read.
func TestRedactedMasksSecretsInErrorsOnly(t *testing.T) {
	in := []JobStatus{{Job: "push", LastFailure: &RunInfo{Error: "GET /v1?key=sk-live-123: 503"}}, {Job: "quiet"}}
	out := Redacted(in, "sk-live-123")
	if got := out[0].LastFailure.Error; got != "GET /v1?key=[REDACTED]: 503" {
		t.Fatalf("masked error = %q", got)
	}
	if in[0].LastFailure.Error != "GET /v1?key=sk-live-123: 503" || out[1].Job != "quiet" || out[1].LastFailure != nil {
		t.Fatalf("Redacted changed its input or lost a job: %+v %+v", in[0].LastFailure, out[1])
	}
}
