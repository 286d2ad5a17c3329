package config

import (
	"path/filepath"
	"strconv"
	"strings"

	robfig "github.com/robfig/cron/v3"
)

// Defaults of the scheduled snapshots: 20:00 UTC is 03:00 in Vietnam,
// the bot's quietest hour; a week of dailies.
const (
	DefaultBackupSchedule = "0 20 * * *"
	DefaultBackupKeep     = 7
)

// parseBackup reads the container's scheduled snapshots: BACKUP_DIR turns
// them on; the schedule and how many to keep only mean something with it.
func (c *Config) parseBackup(env func(string) string, bad func(string, ...any)) {
	c.BackupDir = env("BACKUP_DIR")
	c.BackupSchedule = orDefault(env("BACKUP_SCHEDULE"), DefaultBackupSchedule)
	c.BackupKeep = DefaultBackupKeep
	if v := env("BACKUP_KEEP"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad("BACKUP_KEEP: %q is not a number of snapshots (1 or more)", v)
		}
		c.BackupKeep = n
	}
	// ParseStandard takes @daily too; the registry takes 5 fields only.
	if _, err := robfig.ParseStandard(c.BackupSchedule); err != nil || len(strings.Fields(c.BackupSchedule)) != 5 {
		bad("BACKUP_SCHEDULE: %q is not a 5-field cron expression (minute hour day month weekday, UTC)", c.BackupSchedule)
	}
	switch {
	case c.BackupDir == "" && (env("BACKUP_SCHEDULE") != "" || env("BACKUP_KEEP") != ""):
		bad("BACKUP_SCHEDULE and BACKUP_KEEP need BACKUP_DIR, the directory the snapshots go to")
	case c.BackupDir != "" && !filepath.IsAbs(c.BackupDir):
		bad("BACKUP_DIR: %q is not an absolute path", c.BackupDir)
	}
}
