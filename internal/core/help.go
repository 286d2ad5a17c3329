package core

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"

	"github.com/go-telegram/bot/models"
)

// HelpText renders the commands role may run, grouped by module, in
// registry order. It is generated, so it can never list a command that does
// not exist or hide one that does.
func (r *Registry) HelpText(role app.Role) string {
	var b strings.Builder
	b.WriteString("<b>Commands</b>\n")
	inline := false
	for _, m := range r.modules {
		if lines := helpLines(m, role); len(lines) > 0 {
			in := inlineHelp(m)
			inline = inline || len(in) > 0
			fmt.Fprintf(&b, "\n<b>%s</b>\n%s\n", html.EscapeString(m.Name), strings.Join(append(lines, in...), "\n"))
		}
	}
	if inline {
		b.WriteString("\n" + inlineHint)
	}
	if slices.ContainsFunc(r.modules, hearsText) {
		b.WriteString("\n" + plainNote + "\n")
	}
	return b.String()
}

// plainNote tells /help's reader that answers may be typed plainly (the
// routing rule of app.TextRequest), where a module hears them.
const plainNote = "<i>While a game or a question waits, just type your answer (in a group, reply to my message); /cancel stops a question.</i>"

func hearsText(m *app.Module) bool { return m.OnText != nil || len(m.Steps) > 0 }

// HelpModules are the modules with a command role may run, in registry
// order, and how many such commands there are in all.
func (r *Registry) HelpModules(role app.Role) (names []string, commands int) {
	for _, m := range r.modules {
		if n := len(helpLines(m, role)); n > 0 {
			names = append(names, m.Name)
			commands += n
		}
	}
	return names, commands
}

// HelpPage is one module's page of HelpText; ok false when role may run
// none of its commands (or it is not enabled).
func (r *Registry) HelpPage(role app.Role, module string) (page string, ok bool) {
	for _, m := range r.modules {
		if m.Name != module {
			continue
		}
		lines := helpLines(m, role)
		if len(lines) == 0 {
			return "", false
		}
		if hearsText(m) {
			lines = append(lines, "", plainNote)
		}
		page = fmt.Sprintf("<b>Commands: %s</b>\n%s", html.EscapeString(m.Name), strings.Join(lines, "\n"))
		if in := inlineHelp(m); len(in) > 0 {
			page += "\n" + strings.Join(in, "\n") + "\n\n" + inlineHint
		}
		return page, true
	}
	return "", false
}

// helpLines are m's commands role may run, one line each.
func helpLines(m *app.Module, role app.Role) []string {
	var lines []string
	for _, c := range m.Commands {
		if !c.Visibility.May(role) {
			continue
		}
		mark := ""
		if c.Visibility != app.Public {
			mark = " <i>(" + c.Visibility.String() + ")</i>"
		}
		lines = append(lines, fmt.Sprintf("/%s - %s%s", c.Name, html.EscapeString(c.Description), mark))
	}
	return lines
}

// MenuCommands are the public commands, for Telegram's command menu.
func (r *Registry) MenuCommands() []models.BotCommand {
	var out []models.BotCommand
	for _, mc := range r.Commands() {
		if mc.Visibility == app.Public {
			out = append(out, models.BotCommand{Command: mc.Name, Description: mc.Description})
		}
	}
	if slices.ContainsFunc(r.modules, func(m *app.Module) bool { return len(m.Steps) > 0 }) {
		out = append(out, models.BotCommand{Command: cancelCommand, Description: cancelDescription})
	}
	return out
}

// cancelDescription is the engine's /cancel in Telegram's menu.
const cancelDescription = "Stop the question I am waiting for you to answer"

// SyncCommands publishes the public commands with setMyCommands, so no
// hand-maintained command list exists anywhere.
func (a *App) SyncCommands(ctx context.Context) error {
	if err := a.bot.SetCommands(ctx, a.reg.MenuCommands()); err != nil {
		return fmt.Errorf("setMyCommands: %w", err)
	}
	return nil
}
