package core

import (
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"

	robfig "github.com/robfig/cron/v3"
)

// validName is the rule for command and cron job names, nameRule: what
// Telegram accepts in a command. Module names follow the storage namespace
// rule (storage.ValidateModule), since each module is a namespace. A loop,
// not a regexp: it runs for every command at every start.
func validName(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for i := range len(name) {
		if c := name[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// nameRule is how an error states the rule.
const nameRule = "^[a-z0-9_]{1,32}$"

// maxDescription is Telegram's limit for a command description.
const maxDescription = 256

// Registry is the set of enabled modules, checked for conflicts at start-up.
type Registry struct {
	modules   []*app.Module
	commands  map[string]route
	callbacks []callbackRoute // prefixes never overlap, so at most one matches
	crons     []CronJob
	// disabledJobs are the catalogue's jobs whose module is not enabled,
	// with that module.
	disabledJobs map[string]string
	// catalog is the engine's and the modules' texts, parsed at the
	// first lookup.
	catalog *locale.Catalog
}

type route struct {
	module *app.Module
	cmd    *app.Command
}

type callbackRoute struct {
	module *app.Module
	cb     *app.Callback
}

// CronJob is a registered cron job with its module and parsed schedule.
type CronJob struct {
	Module string
	app.Cron
	schedule robfig.Schedule
}

// Modules returns the enabled modules in MODULES order.
func (r *Registry) Modules() []*app.Module { return r.modules }

// Crons returns every cron job, in registration order.
func (r *Registry) Crons() []CronJob { return r.crons }

// CronByName finds a cron job.
func (r *Registry) CronByName(name string) (CronJob, bool) {
	for _, c := range r.crons {
		if c.Name == name {
			return c, true
		}
	}
	return CronJob{}, false
}

// DisabledJob reports whether name is a job of a catalogue module that
// MODULES leaves out, and which.
func (r *Registry) DisabledJob(name string) (module string, ok bool) {
	module, ok = r.disabledJobs[name]
	return module, ok
}

// HasCommand reports whether name is a command of an enabled module: what
// a module checks before a user's text becomes part of a key.
func (r *Registry) HasCommand(name string) bool {
	_, ok := r.commands[name]
	return ok
}

// Commands lists every command with its module, in registration order.
func (r *Registry) Commands() []ModuleCommand {
	var out []ModuleCommand
	for _, m := range r.modules {
		for _, c := range m.Commands {
			out = append(out, ModuleCommand{Module: m.Name, Command: c})
		}
	}
	return out
}

// ModuleCommand is a command with the module that owns it.
type ModuleCommand struct {
	Module string
	app.Command
}

// callbackFor finds the callback whose prefix starts data.
func (r *Registry) callbackFor(data string) (callbackRoute, bool) {
	for _, cr := range r.callbacks {
		if strings.HasPrefix(data, cr.cb.Prefix) {
			return cr, true
		}
	}
	return callbackRoute{}, false
}
