package core_test

import (
	"context"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/telegram"
)

func noop(context.Context, *app.Request) error { return nil }

func module(m app.Module) app.Factory {
	return app.Factory{Name: m.Name, New: func(app.Deps) (*app.Module, error) { return &m, nil }}
}

func web(context.Context, *app.WebRequest) (any, error) { return nil, nil }

func cmd(name string) app.Command {
	return app.Command{Name: name, Description: "does " + name, Handler: noop}
}

func cron(name, schedule string) app.Cron {
	return app.Cron{Name: name, Schedule: schedule, Handler: func(context.Context, app.CronRun) error { return nil }}
}

func TestRegistryRejectsBadModuleSetsAtStartUp(t *testing.T) {
	alpha := module(app.Module{Name: "alpha", Commands: []app.Command{cmd("a")}})
	tests := []struct {
		name    string
		modules []app.Factory
		enabled []string
		want    []string // every fragment must appear in the error
	}{
		{"an unknown module in MODULES", []app.Factory{alpha}, []string{"alpha", "nosuch"}, []string{`unknown module "nosuch"`, "known: alpha"}},
		{"a module listed twice in MODULES", []app.Factory{alpha}, []string{"alpha", "alpha"}, []string{`"alpha" listed twice`}},
		{"a bad module name", []app.Factory{module(app.Module{Name: "Bad.Name"})}, nil, []string{`module "Bad.Name": name must match`}},
		{"the reserved core name", []app.Factory{module(app.Module{Name: "core"})}, nil, []string{"reserved for the core"}},
		{"a duplicate command across modules", []app.Factory{alpha, module(app.Module{Name: "beta", Commands: []app.Command{cmd("a")}})}, nil,
			[]string{`module "beta" command "a": /a is already registered by module "alpha"`}},
		{"a bad command name", []app.Factory{module(app.Module{Name: "m", Commands: []app.Command{cmd("Bad-Cmd")}})}, nil, []string{`command "Bad-Cmd": name must match`}},
		{"a missing description", []app.Factory{module(app.Module{Name: "m", Commands: []app.Command{{Name: "x", Handler: noop}}})}, nil, []string{`command "x": missing description`}},
		{"a missing handler", []app.Factory{module(app.Module{Name: "m", Commands: []app.Command{{Name: "x", Description: "x"}}})}, nil, []string{`command "x": no handler`}},
		{"a duplicate cron", []app.Factory{
			module(app.Module{Name: "m1", Crons: []app.Cron{cron("daily", "0 1 * * *")}}),
			module(app.Module{Name: "m2", Crons: []app.Cron{cron("daily", "0 2 * * *")}}),
		}, nil, []string{`module "m2" cron "daily": already registered by module "m1"`}},
		{"a cron schedule without 5 fields", []app.Factory{module(app.Module{Name: "m", Crons: []app.Cron{cron("c", "@daily")}})}, nil, []string{`cron "c": schedule "@daily" must have 5 fields`}},
		{"a cron job its factory does not declare", []app.Factory{{Name: "m", New: func(app.Deps) (*app.Module, error) {
			return &app.Module{Name: "m", Crons: []app.Cron{cron("daily", "0 1 * * *")}}, nil
		}}}, nil, []string{`module "m": its cron jobs ["daily"] differ from the ones its Factory.Jobs declares`}},
		{"a cron schedule out of range", []app.Factory{module(app.Module{Name: "m", Crons: []app.Cron{cron("job", "61 * * * *")}})}, nil, []string{`cron "job": schedule "61 * * * *"`}},
		{"overlapping callback prefixes", []app.Factory{
			module(app.Module{Name: "m1", Callbacks: []app.Callback{{Prefix: "g:", Handler: func(context.Context, *app.CallbackRequest) error { return nil }}}}),
			module(app.Module{Name: "m2", Callbacks: []app.Callback{{Prefix: "g:x", Handler: func(context.Context, *app.CallbackRequest) error { return nil }}}}),
		}, nil, []string{`callback prefix "g:x" overlaps "g:" of module "m1"`}},
		{"a web route with a bad name", []app.Factory{module(app.Module{Name: "m", Web: []app.WebRoute{{Name: "a/b", Handler: web}}})}, nil, []string{`web route "a/b": name must match`}},
		{"a web route without a handler", []app.Factory{module(app.Module{Name: "m", Web: []app.WebRoute{{Name: "me"}}})}, nil, []string{`web route "me": no handler`}},
		{"a web route declared twice", []app.Factory{module(app.Module{Name: "m", Web: []app.WebRoute{{Name: "me", Handler: web}, {Name: "me", Handler: web}}})}, nil, []string{`web route "me": declared twice`}},
		{"every problem at once", []app.Factory{module(app.Module{Name: "m", Commands: []app.Command{cmd("Bad"), {Name: "x", Handler: noop}}})}, nil,
			[]string{`"Bad": name must match`, `"x": missing description`}},
	}
	client, _ := telegram.New("1:x")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := core.New(memory.New(), client, core.WithModules(tt.modules, tt.enabled...))
			if err == nil {
				t.Fatal("New accepted the module set")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestMODULESKeepsItsOrder(t *testing.T) {
	a := module(app.Module{Name: "a", Commands: []app.Command{cmd("x")}})
	b := module(app.Module{Name: "b", Commands: []app.Command{cmd("y")}})
	client, _ := telegram.New("1:x")
	got, err := core.New(memory.New(), client, core.WithModules([]app.Factory{a, b}, "b", "a"))
	if err != nil {
		t.Fatal(err)
	}
	mods := got.Registry().Modules()
	if len(mods) != 2 || mods[0].Name != "b" || mods[1].Name != "a" {
		t.Fatalf("modules in order %v, want b then a", mods)
	}
}

func TestModulesSeeOnlyTheirDeclaredSettings(t *testing.T) {
	var seen map[string]string
	f := app.Factory{
		Name:     "cfg",
		Settings: []app.Setting{{Name: "CFG_URL", Default: "https://default"}, {Name: "CFG_KEY", Secret: true}},
		New: func(d app.Deps) (*app.Module, error) {
			seen = d.Settings
			return &app.Module{Name: "cfg"}, nil
		},
	}
	client, _ := telegram.New("1:x")
	_, err := core.New(memory.New(), client, core.WithModules([]app.Factory{f}),
		core.WithSettings(map[string]string{"CFG_KEY": "k", "OTHER_SECRET": "no"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen["CFG_URL"] != "https://default" || seen["CFG_KEY"] != "k" {
		t.Fatalf("settings = %v", seen)
	}
}
