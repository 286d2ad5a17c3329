package config_test

import (
	"strings"
	"testing"
)

// Scheduled snapshots are off until BACKUP_DIR names where they go; the
// schedule and count then have defaults, and a bad one stops the start.
func TestBackupSettingsAreCheckedAtStart(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		dir      string
		schedule string
		keep     int
		bad      string
	}{
		{"off by default", nil, "", "0 20 * * *", 7, ""},
		{"a directory turns them on, with the defaults", map[string]string{"BACKUP_DIR": "/backups"}, "/backups", "0 20 * * *", 7, ""},
		{"the schedule and count as given", map[string]string{"BACKUP_DIR": "/backups", "BACKUP_SCHEDULE": "*/30 * * * *", "BACKUP_KEEP": "48"}, "/backups", "*/30 * * * *", 48, ""},
		{"a schedule needs a directory", map[string]string{"BACKUP_SCHEDULE": "0 1 * * *"}, "", "", 0, "need BACKUP_DIR"},
		{"a relative directory", map[string]string{"BACKUP_DIR": "backups"}, "", "", 0, `BACKUP_DIR: "backups" is not an absolute path`},
		{"a schedule of six fields", map[string]string{"BACKUP_DIR": "/b", "BACKUP_SCHEDULE": "0 0 20 * * *"}, "", "", 0, "BACKUP_SCHEDULE: \"0 0 20 * * *\" is not a 5-field"},
		{"a descriptor", map[string]string{"BACKUP_DIR": "/b", "BACKUP_SCHEDULE": "@daily"}, "", "", 0, "BACKUP_SCHEDULE"},
		{"keeping none", map[string]string{"BACKUP_DIR": "/b", "BACKUP_KEEP": "0"}, "", "", 0, "BACKUP_KEEP: \"0\" is not a number of snapshots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := load(t, tt.env)
			if tt.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Fatalf("Load = %v; want %q", err, tt.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.BackupDir != tt.dir || c.BackupSchedule != tt.schedule || c.BackupKeep != tt.keep {
				t.Fatalf("dir %q, schedule %q, keep %d", c.BackupDir, c.BackupSchedule, c.BackupKeep)
			}
		})
	}
}
