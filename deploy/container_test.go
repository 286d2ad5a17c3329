package deploy_test

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"

	"github.com/miti99bot/miti99bot/internal/config"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

func read(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTheDockerfileBuildsASmallHealthCheckedImage(t *testing.T) {
	df := read(t, "../Dockerfile")
	toolchain := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindStringSubmatch(read(t, "../go.mod"))
	if toolchain == nil {
		t.Fatal("go.mod names no toolchain")
	}
	for _, want := range []string{
		"FROM golang:" + toolchain[1] + "-", "ARG SOURCE_COMMIT", "ARG GIT_SHA", "buildinfo.GitSHA=${SOURCE_COMMIT:-${GIT_SHA}}", "CGO_ENABLED=0",
		"FROM gcr.io/distroless/static-debian12:nonroot", "USER nonroot", "EXPOSE 8080",
		`HEALTHCHECK`, `"-healthcheck"`, "./cmd/container", "./cmd/botctl", "COPY --from=build /out/botctl /botctl",
		"--chown=nonroot:nonroot /out/backups /backups",
		"COPY tools/webapp/package.json tools/webapp/package-lock.json tools/webapp/assets.mjs", "npm ci", "node tools/webapp/assets.mjs",
		"COPY --from=webapp /src/internal/webapp/ internal/webapp/",
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The Mini App's chart library may come from a stage before the Go builder's.
	builder, runtime := strings.Index(df, "\nFROM golang"), strings.LastIndex(df, "\nFROM ")
	if builder < 0 || runtime <= builder || !strings.HasPrefix(df[runtime+1:], "FROM gcr.io/distroless") {
		t.Error("the Dockerfile must be multi-stage: a Go builder, then the runtime")
	}
}

func TestComposeRunsTheBotBehindCoolifyInEitherMode(t *testing.T) {
	env := []string{"TELEGRAM_BOT_TOKEN=x", "MONGO_URL=mongodb://mongo:27017", "MONGO_DATABASE=bot"}
	opts, err := cli.NewProjectOptions([]string{"../compose.yml"}, cli.WithWorkingDirectory(".."), cli.WithEnv(env), cli.WithName("miti99bot"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("compose.yml does not load: %v", err)
	}
	bot, ok := p.Services["bot"]
	if !ok {
		t.Fatal("no bot service")
	}
	if bot.Restart != "unless-stopped" {
		t.Errorf("restart = %q", bot.Restart)
	}
	if len(bot.Ports) != 0 {
		t.Errorf("the bot publishes ports %v; Coolify's proxy needs none", bot.Ports)
	}
	// 8080 for Coolify's proxy; 9091 (metrics) for the internal network only.
	if !slices.Equal(bot.Expose, []string{"8080", "9091"}) {
		t.Errorf("expose = %v", bot.Expose)
	}
	if bot.Environment["METRICS_PORT"] == nil || *bot.Environment["METRICS_PORT"] != "9091" || bot.Environment["METRICS_ENABLED"] == nil {
		t.Error("compose must pass METRICS_ENABLED and METRICS_PORT=9091, the exposed metrics port")
	}
	if bot.Deploy == nil || bot.Deploy.Replicas == nil || *bot.Deploy.Replicas != 1 {
		t.Error("one replica unless BOT_REPLICAS says more (webhook mode on MongoDB)")
	}
	for _, v := range []string{"TELEGRAM_WEBHOOK_URL", "TELEGRAM_WEBHOOK_SECRET"} {
		if _, ok := bot.Environment[v]; !ok {
			t.Errorf("compose does not pass %s: webhook mode is set by it", v)
		}
	}
	if bot.Build == nil || bot.Build.Args["GIT_SHA"] == nil || bot.Build.Args["SOURCE_COMMIT"] == nil {
		t.Error("the build must pass SOURCE_COMMIT (Coolify's) and GIT_SHA")
	}
	if bot.Environment["BOLT_PATH"] == nil || *bot.Environment["BOLT_PATH"] != "/data/miti99bot.db" || len(bot.Volumes) != 2 || bot.Volumes[0].Target != "/data" {
		t.Errorf("without MongoDB the bot keeps its data in a file on a volume: env %v, volumes %+v", bot.Environment["BOLT_PATH"], bot.Volumes)
	}
	// Snapshots go to a volume of their own (docs/backup.md), opt-in.
	if len(bot.Volumes) != 2 || bot.Volumes[1].Source != "bot-backups" || bot.Volumes[1].Target != "/backups" || bot.Environment["BACKUP_DIR"] == nil {
		t.Errorf("the snapshots need the bot-backups volume at /backups and BACKUP_DIR passed: volumes %+v", bot.Volumes)
	}
	if dep, ok := bot.DependsOn["mongo"]; !ok || dep.Condition != "service_healthy" || dep.Required {
		t.Errorf("the bot must wait for the local MongoDB to be healthy, when there is one: %+v", bot.DependsOn)
	}
	if _, ok := p.Services["mongo"]; ok {
		t.Error("mongo must only run with the local profile")
	}

	// Required variables are marked ${VAR:?...}: loading without them fails.
	opts, _ = cli.NewProjectOptions([]string{"../compose.yml"}, cli.WithWorkingDirectory(".."), cli.WithEnv(nil), cli.WithName("miti99bot"))
	if _, err := opts.LoadProject(t.Context()); err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN") {
		t.Errorf("compose without TELEGRAM_BOT_TOKEN = %v, want a clear error", err)
	}
	opts, _ = cli.NewProjectOptions([]string{"../compose.yml"}, cli.WithWorkingDirectory(".."), cli.WithEnv(env), cli.WithProfiles([]string{"local"}), cli.WithName("miti99bot"))
	if p, err := opts.LoadProject(t.Context()); err != nil || p.Services["mongo"].Image != "mongo:7" {
		t.Errorf("the local profile should add mongo:7: %v", err)
	}
	webhook := append(slices.Clone(env), "TELEGRAM_WEBHOOK_URL=https://bot.example.org/webhook", "TELEGRAM_WEBHOOK_SECRET=s", "BOT_REPLICAS=3")
	opts, _ = cli.NewProjectOptions([]string{"../compose.yml"}, cli.WithWorkingDirectory(".."), cli.WithEnv(webhook), cli.WithName("miti99bot"))
	p, err = opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("compose in webhook mode does not load: %v", err)
	}
	if bot := p.Services["bot"]; bot.Deploy.Replicas == nil || *bot.Deploy.Replicas != 3 || *bot.Environment["TELEGRAM_WEBHOOK_URL"] != "https://bot.example.org/webhook" {
		t.Errorf("webhook mode with BOT_REPLICAS=3: replicas %v, url %v", bot.Deploy.Replicas, bot.Environment["TELEGRAM_WEBHOOK_URL"])
	}
}

var envLine = regexp.MustCompile(`^#?\s*([A-Z][A-Z0-9_]*)=`)

// TestEveryVariableIsDocumented keeps .env.example and the variables table
// (docs/configuration.md) in step with what the config actually reads.
func TestEveryVariableIsDocumented(t *testing.T) {
	listed := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(read(t, "../.env.example")))
	for sc.Scan() {
		if m := envLine.FindStringSubmatch(sc.Text()); m != nil {
			listed[m[1]] = sc.Text()
		}
	}
	table := read(t, "../docs/configuration.md")
	for _, v := range config.Variables(wiring.Settings()) {
		if _, ok := listed[v.Name]; !ok {
			t.Errorf(".env.example lacks %s", v.Name)
		}
		if !strings.Contains(table, "`"+v.Name+"`") {
			t.Errorf("docs/configuration.md does not document %s", v.Name)
		}
		if v.Secret {
			line, ok := listed[v.Name+"_PARAMETER_NAME"]
			if !ok || !strings.Contains(line, "leave unset off AWS") {
				t.Errorf(".env.example must list %s_PARAMETER_NAME marked \"leave unset off AWS\"", v.Name)
			}
		}
	}
}

// TestTheGrafanaDashboardReadsTheMetricSet: the dashboard is JSON, every
// series it queries is one the bot serves (the metric set, or the Go
// runtime and process metrics the endpoint adds), and the newest
// snapshot's age, which an alert watches, is on it.
func TestTheGrafanaDashboardReadsTheMetricSet(t *testing.T) {
	data, err := os.ReadFile("grafana/miti99bot.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatal(err)
	}
	served := []string{metrics.Updates, metrics.UpdateSeconds + "_bucket", metrics.BotAPICalls, metrics.BotAPIWait,
		metrics.StoreOps, metrics.CronRuns, metrics.DeployNotices, metrics.InitSeconds,
		metrics.BackupTime, metrics.BackupBytes, metrics.BackupItems}
	names := regexp.MustCompile(`\b(miti99bot_[a-z_]+|go_[a-z_]+|process_[a-z_]+)`)
	queried, age := 0, false
	for _, p := range dash.Panels {
		for _, target := range p.Targets {
			age = age || strings.Contains(target.Expr, "time() - "+metrics.BackupTime)
			for _, n := range names.FindAllString(target.Expr, -1) {
				queried++
				if strings.HasPrefix(n, "miti99bot_") && !slices.Contains(served, n) {
					t.Errorf("panel %q queries %s, which the bot does not serve", p.Title, n)
				}
			}
		}
	}
	if queried == 0 {
		t.Fatal("the dashboard queries nothing")
	}
	if !age {
		t.Errorf("no panel shows the newest snapshot's age (time() - %s)", metrics.BackupTime)
	}
}
