package core

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/storage"

	"github.com/go-telegram/bot/models"
)

// HelpText renders the commands role may run, grouped by module, in
// registry order, in lang. It is generated, so it can never list a command
// that does not exist or hide one that does.
func (r *Registry) HelpText(role app.Role, lang app.Lang) string {
	var b strings.Builder
	b.WriteString("<b>" + r.say(lang, "help_title") + "</b>\n")
	inline := false
	for _, m := range r.modules {
		if lines := r.helpLines(m, role, lang); len(lines) > 0 {
			in := r.inlineHelp(m, lang)
			inline = inline || len(in) > 0
			fmt.Fprintf(&b, "\n<b>%s</b>\n%s\n", html.EscapeString(m.Name), strings.Join(append(lines, in...), "\n"))
		}
	}
	if inline {
		b.WriteString("\n" + r.say(lang, "inline_hint"))
	}
	if slices.ContainsFunc(r.modules, hearsText) {
		b.WriteString("\n" + r.say(lang, "plain_note") + "\n")
	}
	return b.String()
}

// say is the engine's text key in lang.
func (r *Registry) say(lang app.Lang, key string, args ...app.Args) string {
	return app.NewWords(r.catalog, storage.CoreNamespace, lang).T(key, args...)
}

func hearsText(m *app.Module) bool { return m.OnText != nil || len(m.Steps) > 0 }

// HelpModules are the modules with a command role may run, in registry
// order, and how many such commands there are in all.
func (r *Registry) HelpModules(role app.Role) (names []string, commands int) {
	for _, m := range r.modules {
		if n := len(visible(m, role)); n > 0 {
			names = append(names, m.Name)
			commands += n
		}
	}
	return names, commands
}

// HelpPage is one module's page of HelpText in lang; ok false when role
// may run none of its commands (or it is not enabled).
func (r *Registry) HelpPage(role app.Role, module string, lang app.Lang) (page string, ok bool) {
	for _, m := range r.modules {
		if m.Name != module {
			continue
		}
		lines := r.helpLines(m, role, lang)
		if len(lines) == 0 {
			return "", false
		}
		if hearsText(m) {
			lines = append(lines, "", r.say(lang, "plain_note"))
		}
		page = fmt.Sprintf("<b>%s</b>\n%s", r.say(lang, "help_page_title", app.Args{"Module": html.EscapeString(m.Name)}), strings.Join(lines, "\n"))
		if in := r.inlineHelp(m, lang); len(in) > 0 {
			page += "\n" + strings.Join(in, "\n") + "\n\n" + r.say(lang, "inline_hint")
		}
		return page, true
	}
	return "", false
}

// visible are m's commands role may run.
func visible(m *app.Module, role app.Role) []app.Command {
	var out []app.Command
	for _, c := range m.Commands {
		if c.Visibility.May(role) {
			out = append(out, c)
		}
	}
	return out
}

// helpLines are m's commands role may run, one line each, in lang.
func (r *Registry) helpLines(m *app.Module, role app.Role, lang app.Lang) []string {
	var lines []string
	for _, c := range visible(m, role) {
		mark := ""
		if c.Visibility != app.Public {
			mark = " <i>(" + r.say(lang, "visibility_"+c.Visibility.String()) + ")</i>"
		}
		lines = append(lines, fmt.Sprintf("/%s - %s%s", c.Name, html.EscapeString(r.Description(m.Name, c, lang)), mark))
	}
	return lines
}

// Description is a command's description in lang: its module's text
// "cmd.<name>" when the catalog has it, else the Command's own.
func (r *Registry) Description(module string, c app.Command, lang app.Lang) string {
	key := module + ".cmd." + c.Name
	if r.catalog != nil && r.catalog.Has(lang, key) {
		return r.catalog.Text(lang, key, nil)
	}
	return c.Description
}

// MenuCommands are the public commands in lang, for Telegram's command
// menu.
func (r *Registry) MenuCommands(lang app.Lang) []models.BotCommand {
	var out []models.BotCommand
	for _, m := range r.modules {
		for _, c := range m.Commands {
			if c.Visibility == app.Public {
				out = append(out, models.BotCommand{Command: c.Name, Description: r.Description(m.Name, c, lang)})
			}
		}
	}
	if slices.ContainsFunc(r.modules, func(m *app.Module) bool { return len(m.Steps) > 0 }) {
		out = append(out, models.BotCommand{Command: cancelCommand, Description: r.say(lang, "cancel_description")})
	}
	return out
}

// Menus are the command menus SyncCommands publishes: for the default
// scope and for group chats, each in English (the default language, for
// every user no other menu is for) and in Vietnamese (language_code vi).
func (r *Registry) Menus() []app.Menu {
	var out []app.Menu
	for _, groups := range []bool{false, true} {
		for _, lang := range locale.Langs {
			m := app.Menu{Commands: r.MenuCommands(lang), Groups: groups}
			if lang != locale.English {
				m.Lang = string(lang)
			}
			out = append(out, m)
		}
	}
	return out
}

// SyncCommands publishes the public commands with setMyCommands, every
// menu of Menus, so no hand-maintained command list exists anywhere.
func (a *App) SyncCommands(ctx context.Context) error {
	for _, m := range a.reg.Menus() {
		if err := a.bot.SetCommands(ctx, m); err != nil {
			return fmt.Errorf("setMyCommands (language %q, groups %v): %w", m.Lang, m.Groups, err)
		}
	}
	return nil
}
