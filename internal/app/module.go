// Package app is what a miti99bot module sees, and nothing else: how it
// declares itself (Factory, Module, Command, Callback, Cron, Setting, Inline),
// what it is handed (Deps, with its own storage namespace), what a handler
// gets (Request, CallbackRequest, InlineRequest, TextRequest), how it talks
// to Telegram (Messenger, Message, Edit, Keyboard, Live, InlineAnswer, the
// error classes to act on), how it does a piece of work once (ApplyOnce,
// Timers), how it hears plain messages (Conversations,
// Module.Steps and Module.OnText; the routing rule is on TextRequest),
// what it says in which language (Module.Texts, Words and req.T, Args,
// Deps.Texts for a chat's language without a request) and the text rules
// (Fit, Quote). The
// engine that runs modules is internal/core; the adapters
// (internal/telegram, the console) implement Messenger. This package imports
// neither, so `go doc ./internal/app` is a module author's manual.
package app

import (
	"context"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Visibility says who may run a command and see it in /help.
type Visibility int

const (
	// Public commands are for everyone and appear in Telegram's menu.
	Public Visibility = iota
	// Protected commands are for the owner and the admins.
	Protected
	// Private commands are for the owner only.
	Private
)

func (v Visibility) String() string {
	return [...]string{"public", "protected", "private"}[v]
}

// Command is one slash command of a module.
type Command struct {
	Name        string // ^[a-z0-9_]{1,32}$, without the slash
	Description string // English, shown in /help and Telegram's menu unless Texts has "cmd.<Name>"
	Visibility  Visibility
	Handler     func(ctx context.Context, req *Request) error
}

// Callback handles inline-keyboard presses whose data starts with Prefix.
type Callback struct {
	Prefix  string
	Handler func(ctx context.Context, req *CallbackRequest) error
}

// Cron is a scheduled job of a module.
type Cron struct {
	Name     string // ^[a-z0-9_]{1,32}$, unique across modules
	Schedule string // 5-field cron expression, UTC
	Handler  func(ctx context.Context, run CronRun) error
	// CatchUp is how late a slot missed while no scheduler ran (a restart
	// across the fire time) may still run, once, when one starts. Zero: a
	// quarter of the time between fires, at most 6 hours (a daily job: 6 h;
	// a per-minute job: none to speak of).
	CatchUp time.Duration
	// Timeout bounds one run. Zero: DefaultCronTimeout. A job that may need
	// longer (a push to thousands of chats at Telegram's bulk rate) says so,
	// up to MaxCronTimeout, which the Lambda's timeout covers.
	Timeout time.Duration
}

// CronRun is one run of a cron job, as its handler sees it.
type CronRun struct {
	// Slot is the scheduled time the run is for, a whole minute in UTC:
	// the fire's own time on time, the missed one when caught up or
	// retried, the one the operator named when run by hand. It is the
	// job's "now" for what its work covers (a daily job does the slot's
	// day), so a run late or by hand does what the slot would have done.
	// Deps.Now is only when the run happens: what is due by then (timers),
	// a price read now, how old a record is.
	Slot time.Time
}

// Bounds of a cron run.
const (
	DefaultCronTimeout = time.Minute
	MaxCronTimeout     = 12 * time.Minute
)

// RunTimeout is how long one run of c may take.
func (c Cron) RunTimeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultCronTimeout
}

// CommandEvent tells hooks that a command ran.
type CommandEvent struct {
	Module, Command string
	ChatID, UserID  int64
	Username        string // the sender's @username, if any
	At              time.Time
	Err             error
	// Update is the command's update_id (0: none known). A hook may hear
	// the same update more than once (its write landed, its caller heard
	// a timeout, and the core ran the hook again): it counts it once.
	Update int64
}

// Module is what a module declares to the core.
type Module struct {
	Name      string
	Commands  []Command
	Callbacks []Callback
	Crons     []Cron
	// OnCommand, when set, sees every command any module ran (stats). Its
	// errors are never shown to users: the core runs a hook that failed
	// again with the update's redelivery (see CommandEvent.Update).
	OnCommand func(ctx context.Context, ev CommandEvent) error
	// ChatState declares where the module keeps what belongs to one chat,
	// as keys of its store with "{chat}" standing for the chat's id:
	// "game:{chat}" is one key, "sub:{chat}:*" every key that begins
	// "sub:<id>:" (after {chat}, a "*" needs a separator first, so one
	// chat's prefix is no other's). When a group becomes a supergroup the
	// engine moves each such key to the new id, keeping a value the new id
	// holds already (the newer), before any of the chat's timers move (so
	// none fires at the new id before its state is there); when a chat is
	// gone for the bot it deletes them. Idempotent, as a ChatChange may be
	// told twice. The registry refuses a template it cannot read.
	ChatState []string
	// OnChatChange, when set, moves or forgets what the module keeps of a
	// chat that ChatState cannot say: a chat's id inside a value (a
	// portfolio's chats, an alert's chat), or a key that needs a rule of
	// its own (see ChatChange). It runs after ChatState's move. An error
	// is retried with the update.
	OnChatChange func(ctx context.Context, ch ChatChange) error
	// OnMemberLeft, when set, forgets what the module keeps of a user as
	// a member of a group (see MemberLeft): what a group shows of its
	// members must not show one who left. An error is retried with the
	// update.
	OnMemberLeft func(ctx context.Context, m MemberLeft) error
	// OnTimer, when set, is called when one of the module's timers is due
	// (Deps.Timers). It may run again for the same timer (Timer.Attempt):
	// an error is tried again at the next tick (the container's waker may
	// tick a second later; the Lambda's schedule, a minute), and a runner
	// that died before recording the end is taken over after TimerStale
	// (a live runner renews its claim, so it never is). Work
	// that must not repeat is applied once by Timer.ID (ApplyOnce); a
	// send may repeat only in that crash window. Return nil for a timer
	// whose work can never be done (the chat is gone): an error for it is
	// retried for a day, then dropped and logged at ERROR.
	OnTimer func(ctx context.Context, t Timer) error
	// Web are the module's answers to the Mini App (see WebRoute).
	Web []WebRoute
	// Inline are the module's answers to inline queries (see Inline).
	Inline []Inline
	// Steps are the module's conversation steps by name (see
	// Conversations): the next plain message of a user the module holds a
	// conversation with goes to Steps[step].
	Steps map[string]TextHandler
	// OnConversationEnd, when set, hears a conversation of the module end
	// other than by its own step (timed out, /cancel, replaced). Unset, a
	// timed-out conversation is told so by the engine.
	OnConversationEnd func(ctx context.Context, e ConversationEnd) error
	// OnText, when set, is offered a plain message no conversation takes
	// (the routing rule is on TextRequest), in module order; the first
	// that takes it has it. A game takes a guess while one runs in the chat.
	OnText OnTextHandler
	// Texts are the module's words (see Words): locales/en.toml and
	// locales/vi.toml, embedded in the module's package
	// (//go:embed locales). A command's description in /help and
	// Telegram's menu is its key "cmd.<name>" when the catalog has it.
	// The engine parses them at the first lookup, not at start.
	Texts fs.FS
}

// Setting is a configuration value a module needs. The config package reads
// it (a secret may come from SSM); the module never reads the environment.
type Setting struct {
	Name    string // environment variable, e.g. GEMINI_API_KEY
	Secret  bool   // never logged; may come from <Name>_PARAMETER_NAME
	Default string
	Help    string // one line for .env.example and the docs
}

// Role is what a user may do: it decides which commands they may run and
// see in /help.
type Role int

const (
	// RoleUser is everyone who is neither the owner nor an admin.
	RoleUser Role = iota
	// RoleAdmin is a user listed in ADMIN_IDS: Public and Protected commands.
	RoleAdmin
	// RoleOwner is OWNER_ID: every command, Private ones included.
	RoleOwner
)

// May reports whether role may run a command of visibility v.
func (v Visibility) May(role Role) bool {
	switch v {
	case Public:
		return true
	case Protected:
		return role >= RoleAdmin
	default:
		return role == RoleOwner
	}
}

// Registry is the read-only view of the enabled modules a module may ask
// (/help renders it; stats counts only real commands).
type Registry interface {
	// HelpText renders the commands role may run, grouped by module, in
	// lang.
	HelpText(role Role, lang Lang) string
	// HelpModules are the modules with a command role may run, and how
	// many such commands there are in all.
	HelpModules(role Role) (names []string, commands int)
	// HelpPage is one module's page of HelpText in lang; ok false when
	// role may run none of its commands.
	HelpPage(role Role, module string, lang Lang) (page string, ok bool)
	// HasCommand reports whether name is a command of an enabled module.
	HasCommand(name string) bool
}

// Deps is everything the core hands a module.
type Deps struct {
	Store    storage.KVStore // the module's own namespace
	Bot      Messenger
	Now      func() time.Time
	HTTP     *http.Client
	Settings map[string]string // the module's declared settings
	Log      *slog.Logger
	// Registry lets /help-like modules read the enabled modules.
	Registry Registry
	OwnerID  int64
	// CronStatus is every cron job's last runs and next fire as a message,
	// naming the store it read (the engine's records, which no module's
	// namespace holds); nil where the runtime gives none.
	CronStatus func(ctx context.Context) (string, error)
	// Rand is the engine's random source, when it gives one (Random).
	Rand *rand.Rand
	// Timers are the module's timers, fired through Module.OnTimer.
	Timers Timers
	// Conversations are the module's conversations, whose steps are
	// Module.Steps.
	Conversations Conversations
	// AppURL is the Mini App's public URL (https://…/app/), "" while the
	// runtime does not know it (see APP_URL); never nil.
	AppURL func() string
	// Texts are the module's words for work no request carries (a timer,
	// a push): a chat's language, or a named one.
	Texts Texts
}

// Factory builds a module. The registry calls New once, at start-up.
type Factory struct {
	Name     string
	Settings []Setting
	// Jobs names the cron jobs the module registers. They are declared here,
	// before the module is built, so that a scheduled fire for a module that
	// MODULES leaves out is told apart from a fire for no job at all; the
	// registry refuses a module whose Crons differ from its Jobs.
	Jobs []string
	New  func(Deps) (*Module, error)
}
