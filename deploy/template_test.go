// Package deploy_test checks the deployment artifacts against the code:
// the SAM template, the container image and compose file, .env.example and
// the docs. No Docker engine or AWS account is needed.
package deploy_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/intrinsics"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

const templatePath = "../template.yaml"

// registry builds the release module set, to read its cron jobs.
func registry(t *testing.T) *core.Registry {
	client, _ := telegram.New("1:x")
	a, err := wiring.NewApp(&config.Config{}, memory.New(), client, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return a.Registry()
}

// raw is the template as JSON, intrinsics resolved, for what goformation's
// types do not model (LoggingConfig, policies).
func raw(t *testing.T) map[string]any {
	data, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	// NoProcess keeps intrinsics as {"Fn::GetAtt": ...} so the checks can
	// see what refers to what.
	js, err := intrinsics.ProcessYAML(data, &intrinsics.ProcessorOptions{NoProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// open parses the template with goformation. Its SAM model predates the
// function's LoggingConfig, so that property (checked on the raw template)
// is removed first.
func open(t *testing.T) *cloudformation.Template {
	m := raw(t)
	if props, ok := dig(m, "Resources", "BotFunction", "Properties").(map[string]any); ok {
		delete(props, "LoggingConfig")
	}
	js, _ := json.Marshal(m)
	tpl, err := goformation.ParseJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

func dig(m any, path ...string) any {
	for _, p := range path {
		mm, ok := m.(map[string]any)
		if !ok {
			return nil
		}
		m = mm[p]
	}
	return m
}

// eventBridgeCron turns a 5-field UTC cron into Scheduler's cron(): six
// fields, with "?" in day-of-week when day-of-month is given.
func eventBridgeCron(t *testing.T, spec string) string {
	f := strings.Fields(spec)
	if len(f) != 5 || f[4] != "*" {
		t.Fatalf("cron %q: only 5-field schedules with weekday * are mapped here; extend eventBridgeCron", spec)
	}
	return fmt.Sprintf("cron(%s %s %s %s ? *)", f[0], f[1], f[2], f[3])
}

func TestTheTemplateDeploysTheBot(t *testing.T) {
	tpl := open(t)
	fn, err := tpl.GetServerlessFunctionWithName("BotFunction")
	if err != nil {
		t.Fatal(err)
	}
	if fn.Runtime == nil || *fn.Runtime != "provided.al2023" || !slices.Equal(fn.Architectures, []string{"arm64"}) || fn.Handler == nil || *fn.Handler != "bootstrap" {
		t.Errorf("function runtime %v, architectures %v, handler %v", fn.Runtime, fn.Architectures, fn.Handler)
	}
	if fn.FunctionUrlConfig == nil || fn.FunctionUrlConfig.AuthType != "NONE" {
		t.Error("the function needs a Function URL with AuthType NONE (the webhook secret is the guard)")
	}
	env := fn.Environment.Variables
	for _, v := range config.Variables(wiring.Settings()) {
		if v.Where == config.Container {
			continue
		}
		_, plain := env[v.Name]
		_, param := env[v.Name+"_PARAMETER_NAME"]
		switch {
		case v.Secret && plain:
			t.Errorf("%s is a secret: the template must pass %s_PARAMETER_NAME, never the value", v.Name, v.Name)
		case v.Secret && !param && (v.Name == "TELEGRAM_BOT_TOKEN" || v.Name == "TELEGRAM_WEBHOOK_SECRET"):
			t.Errorf("the function needs %s_PARAMETER_NAME", v.Name)
		case !v.Secret && !plain:
			t.Errorf("the function's environment lacks %s", v.Name)
		}
	}
	if env["KV_PROVIDER"] != "dynamodb" {
		t.Errorf("KV_PROVIDER = %q", env["KV_PROVIDER"])
	}

	m := raw(t)
	props := dig(m, "Resources", "BotFunction", "Properties")
	if dig(props, "LoggingConfig", "LogFormat") != "JSON" {
		t.Error("logs must be JSON")
	}
	if dig(m, "Resources", "BotLogGroup", "Properties", "RetentionInDays") == nil {
		t.Error("the log group needs a retention")
	}
	policies, _ := json.Marshal(dig(props, "Policies"))
	for _, want := range []string{`"DynamoDBCrudPolicy"`, `"ssm:GetParameters"`, `parameter/miti99bot/`} {
		if !strings.Contains(string(policies), want) {
			t.Errorf("policies lack %s: %s", want, policies)
		}
	}
	if strings.Contains(string(policies), `"*"`) || strings.Contains(string(policies), "ssm:*") {
		t.Errorf("policies must not grant wildcards: %s", policies)
	}

	table, err := tpl.GetDynamoDBTableWithName("BotTable")
	if err != nil {
		t.Fatal(err)
	}
	if table.BillingMode == nil || *table.BillingMode != "PAY_PER_REQUEST" || string(table.AWSCloudFormationDeletionPolicy) != "Retain" {
		t.Errorf("table billing %v, deletion policy %q: want on-demand and Retain", table.BillingMode, table.AWSCloudFormationDeletionPolicy)
	}
	var keys []string
	for _, k := range table.KeySchema {
		keys = append(keys, k.AttributeName+"="+k.KeyType)
	}
	if strings.Join(keys, ",") != "pk=HASH,sk=RANGE" {
		t.Errorf("key schema %v", keys)
	}

	for _, name := range []string{"FunctionUrl", "TableName"} {
		if _, ok := tpl.Outputs[name]; !ok {
			t.Errorf("missing output %s", name)
		}
	}
	for _, name := range []string{"Environment", "Modules", "OwnerId", "AdminIds"} {
		if _, ok := tpl.Parameters[name]; !ok {
			t.Errorf("missing parameter %s", name)
		}
	}
}

// TestEveryCronJobHasExactlyOneSchedule fails when a module registers a job
// the template does not schedule, or the template schedules a job that does
// not exist.
func TestEveryCronJobHasExactlyOneSchedule(t *testing.T) {
	tpl := open(t)
	m := raw(t)
	scheduled := map[string]string{} // job -> expression
	for name, s := range tpl.GetAllSchedulerScheduleResources() {
		var in struct {
			Cron          string `json:"cron"`
			ScheduledTime string `json:"scheduledTime"`
		}
		if s.Target == nil || s.Target.Input == nil || json.Unmarshal([]byte(*s.Target.Input), &in) != nil || in.Cron == "" {
			t.Errorf("schedule %s: input must be {\"cron\": ..., \"scheduledTime\": ...}", name)
			continue
		}
		if in.ScheduledTime != "<aws.scheduler.scheduled-time>" {
			t.Errorf("schedule %s: scheduledTime must be <aws.scheduler.scheduled-time>", name)
		}
		if _, dup := scheduled[in.Cron]; dup {
			t.Errorf("job %s is scheduled twice", in.Cron)
		}
		scheduled[in.Cron] = s.ScheduleExpression
		if s.ScheduleExpressionTimezone == nil || *s.ScheduleExpressionTimezone != "UTC" {
			t.Errorf("schedule %s must be in UTC", name)
		}
		if s.Target.RetryPolicy == nil || s.Target.DeadLetterConfig == nil {
			t.Errorf("schedule %s needs a retry policy and a dead-letter queue", name)
		}
		target := dig(m, "Resources", name, "Properties", "Target")
		if js, _ := json.Marshal(target); !strings.Contains(string(js), "BotFunction") || !strings.Contains(string(js), "SchedulerRole") {
			t.Errorf("schedule %s must invoke BotFunction with SchedulerRole: %s", name, js)
		}
	}
	for _, job := range registry(t).Crons() {
		expr, ok := scheduled[job.Name]
		if !ok {
			t.Errorf("cron job %s (module %s) has no schedule in template.yaml", job.Name, job.Module)
			continue
		}
		if want := eventBridgeCron(t, job.Schedule); expr != want {
			t.Errorf("job %s: template says %s, the module says %s (= %s)", job.Name, expr, job.Schedule, want)
		}
		delete(scheduled, job.Name)
	}
	for job := range scheduled {
		t.Errorf("template.yaml schedules %s, which no module registers", job)
	}

	role, _ := json.Marshal(dig(m, "Resources", "SchedulerRole", "Properties"))
	for _, want := range []string{"scheduler.amazonaws.com", "lambda:InvokeFunction", "sqs:SendMessage"} {
		if !strings.Contains(string(role), want) {
			t.Errorf("scheduler role lacks %s", want)
		}
	}
}

// TestTheFunctionTimeoutFitsTheRuns: the function must outlive the longest
// run it serves, and not by much (a stuck run bills until the timeout).
func TestTheFunctionTimeoutFitsTheRuns(t *testing.T) {
	timeout, ok := dig(raw(t), "Globals", "Function", "Timeout").(float64)
	if !ok {
		t.Fatal("Globals.Function.Timeout is not set")
	}
	got := time.Duration(timeout) * time.Second
	longest := max(core.UpdateBudget+core.RecordTime, app.MaxCronTimeout+10*time.Second) // with recording the outcome
	if got < longest || got > 2*longest {
		t.Fatalf("function timeout %v: want at least %v (the longest run and its record) and not far above", got, longest)
	}
}

// TestOneParameterPausesEverySchedule: the cutover's pause is one
// parameter that every schedule uses, so a stack update cannot undo it.
func TestOneParameterPausesEverySchedule(t *testing.T) {
	m := raw(t)
	if def := dig(m, "Parameters", "SchedulesState", "Default"); def != "ENABLED" {
		t.Fatalf("SchedulesState default = %v, want ENABLED", def)
	}
	resources, _ := dig(m, "Resources").(map[string]any)
	schedules := 0
	for name, r := range resources {
		if dig(r, "Type") != "AWS::Scheduler::Schedule" {
			continue
		}
		schedules++
		if js, _ := json.Marshal(dig(r, "Properties", "State")); string(js) != `{"Ref":"SchedulesState"}` {
			t.Errorf("schedule %s: State = %s, want !Ref SchedulesState", name, js)
		}
		if js, _ := json.Marshal(dig(r, "Properties", "Name")); !strings.Contains(string(js), "AWS::StackName") {
			t.Errorf("schedule %s must be named after the stack (it takes no tags): %s", name, js)
		}
	}
	if schedules == 0 {
		t.Fatal("no schedule found")
	}
}

// TestEveryResourceThatTakesTagsIsTagged: the decommission sweep by tag
// finds every leftover.
func TestEveryResourceThatTakesTagsIsTagged(t *testing.T) {
	m := raw(t)
	if dig(m, "Globals", "Function", "Tags", "app") != "miti99bot" || dig(m, "Globals", "Function", "PropagateTags") != true {
		t.Error("Globals.Function must tag app=miti99bot and propagate the tags")
	}
	resources, _ := dig(m, "Resources").(map[string]any)
	for name, r := range resources {
		switch dig(r, "Type") {
		case "AWS::Serverless::Function", "AWS::Scheduler::Schedule", "AWS::CloudWatch::Dashboard", "AWS::SNS::Subscription":
			continue // the globals; untaggable (named by the stack, or gone with their topic)
		}
		js, _ := json.Marshal(dig(r, "Properties", "Tags"))
		if !strings.Contains(string(js), `{"Key":"app","Value":"miti99bot"}`) {
			t.Errorf("%s (%v) is not tagged app=miti99bot: %s", name, dig(r, "Type"), js)
		}
	}
}

// TestTheTemplateRaisesTheAlarmsThatMatter: a dead-letter queue that is not
// empty, failed updates, a cron job with no run in its period, a failing or
// throttled function; each publishing to the alarm topic, which mails the
// AlarmEmail parameter only when one is given; and a dashboard.
func TestTheTemplateRaisesTheAlarmsThatMatter(t *testing.T) {
	m := raw(t)
	resources, _ := dig(m, "Resources").(map[string]any)
	alarms := map[string]string{} // resource -> what it watches
	for name, r := range resources {
		if dig(r, "Type") != "AWS::CloudWatch::Alarm" {
			continue
		}
		js, _ := json.Marshal(dig(r, "Properties"))
		if !strings.Contains(string(js), `"AlarmActions":[{"Ref":"AlarmTopic"}]`) {
			t.Errorf("%s does not publish to AlarmTopic: %s", name, js)
		}
		alarms[name] = string(js)
	}
	watches := func(what string) bool {
		for _, js := range alarms {
			if strings.Contains(js, what) {
				return true
			}
		}
		return false
	}
	for _, what := range []string{
		`"MetricName":"ApproximateNumberOfMessagesVisible"`, `"MetricName":"updates.message.failed"`,
		`"MetricName":"updates.callback_query.dropped"`, `"MetricName":"Errors"`, `"MetricName":"Throttles"`,
	} {
		if !watches(what) {
			t.Errorf("no alarm watches %s", what)
		}
	}
	for _, job := range registry(t).Crons() {
		if !watches(`"MetricName":"cron_runs.` + job.Name + `.ran"`) {
			t.Errorf("cron job %s has no alarm for a period without a run", job.Name)
		}
	}
	if dig(resources, "AlarmEmailSubscription", "Condition") != "HasAlarmEmail" {
		t.Error("the e-mail subscription must exist only when AlarmEmail is given")
	}
	body, _ := dig(resources, "Dashboard", "Properties", "DashboardBody", "Fn::Sub").([]any)
	if len(body) != 2 {
		t.Fatalf("the dashboard body is not a Fn::Sub with variables: %v", dig(resources, "Dashboard"))
	}
	text, _ := body[0].(string)
	// The body must be JSON once CloudFormation substitutes: try it with
	// stand-ins for the variables.
	text = strings.NewReplacer("${AWS::Region}", "eu-west-1", "${Fn}", "fn", "${Dlq}", "dlq").Replace(text)
	var dash struct {
		Widgets []map[string]any `json:"widgets"`
	}
	if err := json.Unmarshal([]byte(text), &dash); err != nil || len(dash.Widgets) < 5 {
		t.Fatalf("the dashboard body is not JSON with its widgets (%v): %s", err, text)
	}
}
