// Package desk is a market's price, buy and sell commands, and the
// questions a buy or sell with no arguments asks.
package desk

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
)

// A buy or sell command with nothing after it asks for the symbol, then
// the amount, as a conversation (app.Conversations), and then runs the
// command itself with "<SYMBOL> <amount>": apply-once by update id, the
// reply and every rule stay the command's. In a private chat the symbol
// question carries a button per holding ("<name>:b:<SYM>" to buy,
// "<name>:o:<SYM>" to sell, in the desk's Callback); a press answers the
// step as a typed symbol does. In a group the questions are forced
// replies (Telegram gives a message one markup), naming the holdings.
const (
	kindAskBuy  = "b"
	kindAskSell = "o"

	stepSymbol = "order_symbol"
	stepAmount = "order_amount"

	askSymbolText = "trading.ask_symbol"
)

// Orders are a desk's buy and sell commands, asking their missing
// arguments. A market of one symbol (Kit.Only) asks only the amount, and
// its commands take it alone ("/gold_buy 0.5").
type Orders struct {
	Desk *trading.Desk
	Conv app.Conversations
}

// BuyCommand is the buy command: a buy, or the questions when it has no
// arguments.
func (o *Orders) BuyCommand(ctx context.Context, r *app.Request) error {
	return o.command(ctx, r, kindAskBuy)
}

// SellCommand is the sell command, as BuyCommand.
func (o *Orders) SellCommand(ctx context.Context, r *app.Request) error {
	return o.command(ctx, r, kindAskSell)
}

// Steps are the conversation's steps, for the module's Steps.
func (o *Orders) Steps() map[string]app.TextHandler {
	return map[string]app.TextHandler{stepSymbol: o.stepSymbol, stepAmount: o.stepAmount}
}

func (o *Orders) run(kind string) func(ctx context.Context, r *app.Request) error {
	if kind == kindAskBuy {
		return o.buy
	}
	return o.sell
}

func (o *Orders) amount(kind string) trading.OrderAmount {
	if kind == kindAskBuy {
		return o.Desk.Kit.Buy
	}
	return o.Desk.Kit.Sell
}

func (o *Orders) command(ctx context.Context, r *app.Request, kind string) error {
	if strings.TrimSpace(r.Args) != "" {
		return o.run(kind)(ctx, r)
	}
	if only := o.Desk.Kit.Only; only != "" {
		if err := o.Conv.Start(ctx, app.ConversationOf(r, stepAmount, 0, []byte(kind+" "+only))); err != nil {
			return err
		}
		_, err := r.Ask(ctx, r.T(o.amount(kind).Ask))
		return err
	}
	if err := o.Conv.Start(ctx, app.ConversationOf(r, stepSymbol, 0, []byte(kind))); err != nil {
		return err
	}
	return o.askSymbol(ctx, r, kind, r.T(askSymbolText))
}

// askSymbol asks which symbol: with a button per holding in a private
// chat, the holdings named in a group's forced reply.
func (o *Orders) askSymbol(ctx context.Context, r *app.Request, kind, text string) error {
	held, err := o.held(ctx, r.UserID)
	if err != nil {
		return err
	}
	if len(held) == 0 {
		_, err := r.Ask(ctx, text)
		return err
	}
	if !r.Private {
		_, err := r.Ask(ctx, text+"\n"+r.T("trading.you_hold", app.Args{"Symbols": strings.Join(held, ", ")}))
		return err
	}
	var rows [][]app.Button
	for i, sym := range held {
		if i%4 == 0 {
			rows = append(rows, nil)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], app.Button{Text: sym, Data: app.Data(o.Desk.Name+":", kind, sym)})
	}
	kb, err := app.Keyboard(rows...)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, text, kb)
	return err
}

// held are the symbols the user holds, sorted.
func (o *Orders) held(ctx context.Context, user int64) ([]string, error) {
	p, _, err := trading.Load(ctx, o.Desk.Quotes.Store, user)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(p.Holdings)), nil
}

// stepSymbol takes a typed symbol; one the market cannot read is asked
// again.
func (o *Orders) stepSymbol(ctx context.Context, r *app.TextRequest) error {
	kind := string(r.Conversation.State)
	sym, ok := o.Desk.Kit.Read(r.Text)
	if !ok {
		if err := r.Continue(ctx, stepSymbol, 0, r.Conversation.State); err != nil {
			return err
		}
		return o.askSymbol(ctx, r.Request, kind, r.T("trading.not_a_symbol", app.Args{"Arg": app.Quote(r.Text)})+" "+r.T(askSymbolText))
	}
	if err := r.Continue(ctx, stepAmount, 0, []byte(kind+" "+sym)); err != nil {
		return err
	}
	_, err := r.Ask(ctx, sym+": "+r.T(o.amount(kind).Ask))
	return err
}

// stepAmount runs the command with the symbol and the typed amount; the
// conversation ends with the command's reply. An amount the command
// would refuse before pricing is explained and asked again, the step kept.
func (o *Orders) stepAmount(ctx context.Context, r *app.TextRequest) error {
	kind, sym, _ := strings.Cut(string(r.Conversation.State), " ")
	// The lots are checked here and not in parse: a dividend's shares are
	// no trade, and may be an odd lot.
	a := o.amount(kind)
	qty, all, err := parse(r.Lang, a, o.Desk.Market, strings.TrimSpace(r.Text), kind == kindAskSell, r.T("trading.all"))
	hint := trading.Hint(r.Words, a.Hint) // the amount's own hint, not the lots'
	if err == nil && !all && !a.Cash {
		err, hint = o.Desk.Market.Lots(qty), ""
	}
	if err != nil {
		if err := r.Continue(ctx, stepAmount, 0, r.Conversation.State); err != nil {
			return err
		}
		ask := r.T(a.Ask)
		if o.Desk.Kit.Only == "" {
			ask = sym + ": " + ask
		}
		_, err = r.Ask(ctx, app.Quote(r.Text)+": "+trading.Why(r.Words, err)+hint+". "+ask)
		return err
	}
	amount := strings.TrimSpace(r.Text)
	if all {
		amount = "all" // the reader's word for it may be two ("tất cả")
	}
	req := *r.Request
	req.Args = sym + " " + amount
	if o.Desk.Kit.Only != "" {
		req.Args = amount
	}
	return o.run(kind)(ctx, &req)
}

// Press answers the symbol step with a holding's button: the press's
// update moves the conversation once.
func (o *Orders) Press(ctx context.Context, c *app.CallbackRequest, kind, arg string) error {
	sym, ok := o.Desk.Kit.Read(arg)
	if !ok || (kind != kindAskBuy && kind != kindAskSell) {
		return c.Answer(ctx, c.T(app.StaleButton))
	}
	if err := o.Conv.Start(ctx, app.Conversation{ChatID: c.ChatID, ThreadID: c.ThreadID, UserID: c.UserID,
		Step: stepAmount, State: []byte(kind + " " + sym), Update: c.UpdateID()}); err != nil {
		return err
	}
	_, err := c.Reply(ctx, sym+": "+c.T(o.amount(kind).Ask))
	return err
}
