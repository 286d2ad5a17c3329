package config

import "github.com/miti99bot/miti99bot/internal/app"

// Where a variable matters.
const (
	Both      = "both"
	Container = "container" // not read on Lambda
)

// Variable is one environment variable the bot reads.
type Variable struct {
	Name    string
	Secret  bool // may also come from <Name>_PARAMETER_NAME
	Where   string
	Default string
	Help    string
}

// core are the variables Load reads for every module set.
var core = []Variable{
	{Name: "TELEGRAM_BOT_TOKEN", Secret: true, Where: Both, Help: "the bot's token from @BotFather (required)"},
	{Name: "TELEGRAM_API_URL", Where: Both, Default: "https://api.telegram.org", Help: "Bot API base URL"},
	{Name: "TELEGRAM_BOT_USERNAME", Where: Both, Help: "the bot's @username; saves a getMe when a command mentions it"},
	{Name: "TELEGRAM_WEBHOOK_SECRET", Secret: true, Where: Both, Help: "enables POST /webhook; required on Lambda and with TELEGRAM_WEBHOOK_URL"},
	{Name: "TELEGRAM_WEBHOOK_URL", Where: Container, Help: "webhook mode for the container: the public https URL of its /webhook; it registers it and does not poll (replicas behind a load balancer); unset: polling"},
	{Name: "APP_URL", Where: Both, Help: "the Mini App's public https URL, ending in /app/ (/portfolio's button, botctl menu set); unset: TELEGRAM_WEBHOOK_URL with /webhook made /app/, or on Lambda the Function URL's /app/ once a webhook came in by it"},
	{Name: "CRON_SHARED_SECRET", Secret: true, Where: Both, Help: "enables POST /cron/{name} and GET /cron/status (header X-Cron-Token); leave unset to disable"},
	{Name: "OWNER_ID", Where: Both, Help: "the owner's Telegram user id"},
	{Name: "ADMIN_IDS", Where: Both, Help: "comma-separated Telegram user ids of admins"},
	{Name: "MODULES", Where: Both, Help: "comma-separated modules to enable, in order; empty: all"},
	{Name: "KV_PROVIDER", Where: Both, Help: "memory, dynamodb, mongodb or bolt; unset: MONGO_URL -> mongodb, DYNAMODB_TABLE -> dynamodb, BOLT_PATH -> bolt, else memory"},
	{Name: "MONGO_URL", Secret: true, Where: Container, Help: "MongoDB connection string (a credential)"},
	{Name: "MONGO_DATABASE", Where: Container, Help: "MongoDB database"},
	{Name: "MONGO_ALLOW_FERRETDB", Where: Container, Default: "false", Help: "true: accept a FerretDB server, refused otherwise (its filtered updates are not atomic, so money, games and claims may apply twice); for tests and local trials only"},
	{Name: "DYNAMODB_TABLE", Where: Both, Help: "DynamoDB table (pk/sk strings)"},
	{Name: "BOLT_PATH", Where: Container, Help: "the embedded store's file (bbolt), e.g. /data/miti99bot.db; a server-free self-host"},
	{Name: "BOLT_CREATE", Where: Container, Default: "false", Help: "true: start a new, empty store in an existing 0-byte BOLT_PATH, which is otherwise refused as a failed copy or restore (a missing file is always created)"},
	{Name: "BACKUP_DIR", Where: Container, Help: "turns on scheduled snapshots of the store into this directory (a volume of its own), docs/backup.md"},
	{Name: "BACKUP_SCHEDULE", Where: Container, Default: "0 20 * * *", Help: "when the snapshots run: 5-field cron, UTC (default 03:00 in Vietnam)"},
	{Name: "BACKUP_KEEP", Where: Container, Default: "7", Help: "how many snapshots BACKUP_DIR keeps, the newest"},
	{Name: "LOG_LEVEL", Where: Both, Default: "info", Help: "debug, info, warn or error"},
	{Name: "PORT", Where: Container, Default: "8080", Help: "HTTP port of the container"},
	{Name: "BIND_ADDR", Where: Container, Help: "the IP address PORT listens on; unset: every interface (a proxy in another container); 127.0.0.1: this host only"},
	{Name: "METRICS_ENABLED", Where: Container, Default: "false", Help: "true: serve Prometheus metrics at GET /metrics on METRICS_PORT (Lambda always writes CloudWatch EMF lines)"},
	{Name: "METRICS_PORT", Where: Container, Default: "9091", Help: "port of /metrics, apart from PORT so that the public domain never serves it; publish it to your Prometheus only"},
	{Name: "METRICS_HOST", Where: Container, Help: "the IP address /metrics listens on; unset: every interface (Prometheus in another container); 127.0.0.1: this host only"},
}

// Variables lists every variable the bot reads: the core's, then the
// modules' settings, each once (modules may share one, as coin and gold
// share BINANCE_API_URL). .env.example, the SAM template and the docs are
// checked against it.
func Variables(settings []app.Setting) []Variable {
	out := append([]Variable{}, core...)
	seen := map[string]bool{}
	for _, s := range settings {
		if seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		out = append(out, Variable{Name: s.Name, Secret: s.Secret, Where: Both, Default: s.Default, Help: s.Help})
	}
	return out
}
