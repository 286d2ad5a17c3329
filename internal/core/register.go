package core

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// disabledJobs maps the jobs of the catalogue's modules left out to them.
func disabledJobs(catalogue, enabled []app.Factory) map[string]string {
	on := map[string]bool{}
	for _, f := range enabled {
		on[f.Name] = true
	}
	out := map[string]string{}
	for _, f := range catalogue {
		if !on[f.Name] {
			for _, j := range f.Jobs {
				out[j] = f.Name
			}
		}
	}
	return out
}

// checkJobs holds a built module to the jobs its factory declares.
func checkJobs(f app.Factory, m *app.Module) error {
	var built []string
	for _, c := range m.Crons {
		built = append(built, c.Name)
	}
	if !slices.Equal(built, f.Jobs) {
		return fmt.Errorf("module %q: its cron jobs %q differ from the ones its Factory.Jobs declares, %q", f.Name, built, f.Jobs)
	}
	return nil
}

// selectFactories picks the enabled factories in the order MODULES gives
// (every factory when enabled is empty).
func selectFactories(all []app.Factory, enabled []string) ([]app.Factory, error) {
	if len(enabled) == 0 {
		return all, nil
	}
	byName := map[string]app.Factory{}
	var known []string
	for _, f := range all {
		byName[f.Name] = f
		known = append(known, f.Name)
	}
	var errs []error
	seen := map[string]bool{}
	out := make([]app.Factory, 0, len(enabled))
	for _, name := range enabled {
		f, ok := byName[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("MODULES: unknown module %q (known: %s)", name, strings.Join(known, ", ")))
		case seen[name]:
			errs = append(errs, fmt.Errorf("MODULES: module %q listed twice", name))
		default:
			seen[name] = true
			out = append(out, f)
		}
	}
	return out, errors.Join(errs...)
}

// register adds modules, reporting every conflict at once.
func (r *Registry) register(mods []*app.Module) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	r.commands = map[string]route{}
	r.catalog = buildCatalog(mods)
	seenModule := map[string]bool{}
	cronOwner := map[string]string{}
	for _, m := range mods {
		switch {
		case storage.ValidateModule(m.Name) != nil:
			bad("module %q: name must match %s", m.Name, storage.ModuleNamePattern)
		case m.Name == storage.CoreNamespace:
			bad("module %q: the name is reserved for the core", m.Name)
		case seenModule[m.Name]:
			bad("module %q: registered twice", m.Name)
		}
		seenModule[m.Name] = true
		for _, t := range m.ChatState {
			if _, err := parseChatTemplate(t); err != nil {
				bad("module %q: %w", m.Name, err)
			}
		}
		for i := range m.Commands {
			c := &m.Commands[i]
			// Worded only when wrong: a start registers every command.
			badCmd := func(format string, a ...any) {
				bad("module %q command %q: "+format, append([]any{m.Name, c.Name}, a...)...)
			}
			switch {
			case !validName(c.Name):
				badCmd("name must match %s", nameRule)
			case strings.TrimSpace(c.Description) == "":
				badCmd("missing description")
			case len(c.Description) > maxDescription:
				badCmd("description longer than %d bytes", maxDescription)
			case c.Handler == nil:
				badCmd("no handler")
			case c.Name == cancelCommand:
				badCmd("/%s is the engine's: it ends any conversation", cancelCommand)
			case c.Visibility < app.Public || c.Visibility > app.Private:
				badCmd("unknown visibility %d", c.Visibility)
			}
			if prev, ok := r.commands[c.Name]; ok {
				badCmd("/%s is already registered by module %q", c.Name, prev.module.Name)
				continue
			}
			r.commands[c.Name] = route{module: m, cmd: c}
		}
		for i := range m.Callbacks {
			cb := &m.Callbacks[i]
			if cb.Prefix == "" || cb.Handler == nil {
				bad("module %q: callback with prefix %q needs a prefix and a handler", m.Name, cb.Prefix)
				continue
			}
			for _, prev := range r.callbacks {
				if strings.HasPrefix(cb.Prefix, prev.cb.Prefix) || strings.HasPrefix(prev.cb.Prefix, cb.Prefix) {
					bad("module %q: callback prefix %q overlaps %q of module %q", m.Name, cb.Prefix, prev.cb.Prefix, prev.module.Name)
				}
			}
			r.callbacks = append(r.callbacks, callbackRoute{module: m, cb: cb})
		}
		for _, c := range m.Crons {
			where := fmt.Sprintf("module %q cron %q", m.Name, c.Name)
			sched, err := scheduleParser.Parse(c.Schedule)
			switch {
			case !validName(c.Name):
				bad("%s: name must match %s", where, nameRule)
			case err != nil:
				bad("%s: schedule %q must have 5 fields (minute hour day month weekday, UTC): %w", where, c.Schedule, err)
			case c.Handler == nil:
				bad("%s: no handler", where)
			case c.Timeout < 0 || c.Timeout > app.MaxCronTimeout:
				bad("%s: timeout %v must be between 0 (the default, %v) and %v", where, c.Timeout, app.DefaultCronTimeout, app.MaxCronTimeout)
			}
			if owner, ok := cronOwner[c.Name]; ok {
				bad("%s: already registered by module %q", where, owner)
				continue
			}
			cronOwner[c.Name] = m.Name
			r.crons = append(r.crons, CronJob{Module: m.Name, Cron: c, schedule: sched})
		}
		errs = append(errs, checkWeb(m)...)
		errs = append(errs, checkInline(m)...)
		r.modules = append(r.modules, m)
	}
	return errors.Join(errs...)
}
