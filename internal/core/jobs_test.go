package core_test

import (
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

// A runtime's own jobs (the container's snapshots) join the registry as a
// module of their own, whatever MODULES enables, under the same rules as a
// module's jobs.
func TestTheRuntimesJobsRegisterAsAModuleOfTheirOwn(t *testing.T) {
	alpha := module(app.Module{Name: "alpha", Crons: []app.Cron{cron("daily", "0 1 * * *")}})
	alpha.Jobs = []string{"daily"}
	tests := []struct {
		name    string
		jobs    []app.Cron
		enabled []string
		want    string // "" for a registry, else a fragment of the error
	}{
		{"beside the modules' jobs", []app.Cron{cron("backup", "0 20 * * *")}, nil, ""},
		{"whatever MODULES enables", []app.Cron{cron("backup", "0 20 * * *")}, []string{"alpha"}, ""},
		{"a name a module's job has is refused", []app.Cron{cron("daily", "0 20 * * *")}, nil, `module "container" cron "daily": already registered by module "alpha"`},
		{"a bad schedule is refused", []app.Cron{cron("backup", "every day")}, nil, `cron "backup": schedule "every day" must have 5 fields`},
	}
	client, _ := telegram.New("1:x")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := core.New(memory.New(), client, core.WithModules([]app.Factory{alpha}, tt.enabled...), core.WithJobs("container", tt.jobs...))
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("New = %v; want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			job, ok := a.Registry().CronByName("backup")
			if !ok || job.Module != "container" || len(a.Registry().Crons()) != 2 {
				t.Fatalf("backup = %+v, %v; crons %d", job, ok, len(a.Registry().Crons()))
			}
		})
	}
}
