package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheAWSRunbookNamesEveryTemplateParameter: an operator learns the
// stack's parameters from docs/deploy-aws.md, so each one is there.
func TestTheAWSRunbookNamesEveryTemplateParameter(t *testing.T) {
	params, ok := raw(t)["Parameters"].(map[string]any)
	if !ok || len(params) == 0 {
		t.Fatal("the template has no Parameters")
	}
	runbook := read(t, "../docs/deploy-aws.md")
	for name := range params {
		if !strings.Contains(runbook, "`"+name+"`") {
			t.Errorf("docs/deploy-aws.md does not name the parameter %s", name)
		}
	}
}

// TestDeploysLeaveTheScheduleStateToTheStack runs the Makefile's own step
// on the samconfig.toml that sam deploy --guided writes: SchedulesState
// goes, every other saved parameter stays, so a later sam deploy keeps the
// stack's state (a cutover's pause) instead of setting the saved one again.
func TestDeploysLeaveTheScheduleStateToTheStack(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is needed to run the Makefile's own step: %v", err)
	}
	makefile, err := filepath.Abs("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, saved, want string
	}{
		{"a quoted string, as SAM writes it",
			`parameter_overrides = "Environment=\"prod\" LogLevel=\"info\" SchedulesState=\"ENABLED\" AlarmEmail=\"a@b.c\""`,
			`parameter_overrides = "Environment=\"prod\" LogLevel=\"info\" AlarmEmail=\"a@b.c\""`},
		{"the state first",
			`parameter_overrides = "SchedulesState=\"DISABLED\" Environment=\"prod\""`,
			`parameter_overrides = " Environment=\"prod\""`},
		{"a TOML array",
			`parameter_overrides = ["Environment=prod", "SchedulesState=ENABLED", "LogLevel=info"]`,
			`parameter_overrides = ["Environment=prod", "LogLevel=info"]`},
		{"no state saved: unchanged",
			`parameter_overrides = "Environment=\"prod\""`,
			`parameter_overrides = "Environment=\"prod\""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			head := "version = 0.1\n[default.deploy.parameters]\nstack_name = \"miti99bot\"\n"
			write(t, filepath.Join(dir, "samconfig.toml"), head+c.saved+"\n")
			cmd := exec.Command("make", "-s", "-f", makefile, "--eval", "unsave: ; @$(UNSAVE_SCHEDULES_STATE)", "unsave")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("make: %v\n%s", err, out)
			}
			if got := read(t, filepath.Join(dir, "samconfig.toml")); got != head+c.want+"\n" {
				t.Errorf("samconfig.toml after the step:\n%s\nwant:\n%s", got, head+c.want+"\n")
			}
			if _, err := os.Stat(filepath.Join(dir, "samconfig.toml.bak")); err == nil {
				t.Error("the step left samconfig.toml.bak behind")
			}
		})
	}
}
