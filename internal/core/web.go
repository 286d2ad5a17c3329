package core

import (
	"fmt"

	"github.com/miti99bot/miti99bot/internal/app"
)

// WebRoute is a module's Mini App route with the module that owns it.
type WebRoute struct {
	Module string
	app.WebRoute
}

// WebRoutes lists every module's Mini App routes, in MODULES order.
func (r *Registry) WebRoutes() []WebRoute {
	var out []WebRoute
	for _, m := range r.modules {
		for _, w := range m.Web {
			out = append(out, WebRoute{Module: m.Name, WebRoute: w})
		}
	}
	return out
}

// checkWeb holds a module's web routes to the command name rule (a route's
// name is a path segment) and to one route per name.
func checkWeb(m *app.Module) []error {
	var errs []error
	seen := map[string]bool{}
	for _, w := range m.Web {
		switch {
		case !validName(w.Name):
			errs = append(errs, fmt.Errorf("module %q web route %q: name must match %s", m.Name, w.Name, nameRule))
		case w.Handler == nil:
			errs = append(errs, fmt.Errorf("module %q web route %q: no handler", m.Name, w.Name))
		case seen[w.Name]:
			errs = append(errs, fmt.Errorf("module %q web route %q: declared twice", m.Name, w.Name))
		}
		seen[w.Name] = true
	}
	return errs
}
