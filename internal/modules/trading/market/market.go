// Package market makes a market's module from its declaration
// (trading.Kit): every part of the kit, each told of the others it answers
// for (the desk's buttons ask through the orders, a chat's move moves its
// alerts), so no part wires itself into another.
package market

import (
	"fmt"
	"slices"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/modules/trading/boards"
	"github.com/miti99bot/miti99bot/internal/modules/trading/chart"
	"github.com/miti99bot/miti99bot/internal/modules/trading/charts"
	"github.com/miti99bot/miti99bot/internal/modules/trading/desk"
	"github.com/miti99bot/miti99bot/internal/modules/trading/inline"
	"github.com/miti99bot/miti99bot/internal/modules/trading/web"
)

// Factory is k's module, its charts drawn by dr.
func Factory(k *trading.Kit, dr chart.Drawer) app.Factory {
	return app.Factory{
		Name:     k.Name,
		Settings: k.Settings,
		Jobs:     []string{k.Name + "_values", k.Name + "_alerts"},
		New:      func(d app.Deps) (*app.Module, error) { return Build(k, d, dr) },
	}
}

// Build makes k's module, its charts drawn by dr.
func Build(k *trading.Kit, d app.Deps, dr chart.Drawer) (*app.Module, error) {
	sites := trading.Sites{Deps: d, URLs: map[string]string{}}
	for _, s := range k.Settings {
		base, err := trading.CheckURL(s.Name, d.Settings[s.Name])
		if err != nil {
			return nil, err
		}
		sites.URLs[s.Name] = base
	}
	if !k.Range.Valid() {
		return nil, fmt.Errorf("%s prices: the range [%s, %s] bounds nothing", k.Name, k.Range.Min, k.Range.Max)
	}
	if !slices.Contains(k.Periods, k.Period) {
		return nil, fmt.Errorf("%s charts: the period %q is not one of the kit's", k.Name, k.Period.Name)
	}
	quotes := &trading.Quotes{Store: d.Store, Log: d.Log, Now: d.Now, Fresh: k.Fresh, UnknownFor: trading.UnknownFor,
		Range: k.Range, NoPrice: k.NoPrice, Sources: k.Sources(sites)}
	dk := &trading.Desk{Kit: k, Quotes: quotes, Bot: d.Bot, Texts: d.Texts}
	dk.Values = &trading.Values{Desk: dk, Photos: d.Photos(), Drawer: dr}
	charted := &charts.Charts{Kit: k, Store: d.Store, Log: d.Log, Now: d.Now, Photos: d.Photos(), Drawer: dr}
	if k.Histories != nil {
		charted.History = k.Histories(sites)
	}
	alerts := &trading.Alerts{Desk: dk, Timers: d.Timers}
	orders := &desk.Orders{Desk: dk, Conv: d.Conversations}
	dk.Alerts, dk.Press = alerts, orders.Press

	n := k.Name
	commands := []app.Command{
		{Name: n + "_price", Handler: orders.PriceCommand},
		{Name: n + "_topup", Handler: dk.TopUp},
		{Name: n + "_buy", Handler: orders.BuyCommand},
		{Name: n + "_sell", Handler: orders.SellCommand},
		{Name: n + "_stats", Handler: dk.ShowStats},
		{Name: n + "_top", Handler: boards.Command(dk)},
		{Name: n + "_alert", Handler: alerts.SetCommand},
		{Name: n + "_alerts", Handler: alerts.ListCommand},
		{Name: n + "_chart", Handler: charted.Command()},
	}
	if k.More != nil {
		commands = append(commands, k.More(dk)...)
	}
	// A command's description is its catalog's "cmd.<name>" in English,
	// as /help and the menu show it where no other language is asked.
	texts := trading.Texts(k.Texts)
	english := app.NewWords(locale.NewCatalog(locale.Source{Namespace: n, FS: texts}), n, app.English)
	for i, c := range commands {
		commands[i].Description = english.T("cmd." + c.Name)
	}
	return &app.Module{
		Name:         n,
		Texts:        texts,
		Commands:     commands,
		Steps:        orders.Steps(),
		OnChatChange: dk.OnChatChange,
		OnMemberLeft: dk.OnMemberLeft,
		OnTimer:      alerts.OnTimer,
		Crons:        []app.Cron{dk.Values.Cron(), alerts.Cron()},
		Web:          []app.WebRoute{web.MeRoute(dk), web.BoardRoute(dk), web.ChartRoute(dk, charted)},
		Callbacks:    []app.Callback{dk.Values.Callback(), boards.Callback(dk), alerts.Callback(), dk.Callback(), charted.Callback()},
		Inline:       []app.Inline{inline.Cards(dk), inline.Summary(dk)},
	}, nil
}
