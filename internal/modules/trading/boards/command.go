// Package boards is a market's /<market>_top: the board of a group, or of
// the users who opted in, and its buttons.
package boards

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/trading"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// A board over boardWhole members shows boardPage of them a page, and
// the asker's own line when it is on another page.
const (
	boardWhole = 20
	boardPage  = 10
)

// A board's buttons (app.CallbackData "<name>t:<order>:<page>", or
// "<name>t:<j|l>" to join or leave the opted-in board): the chat and the
// asker are the pressed message's and the presser, never in the data.
const (
	byValue  = "v"
	byChange = "c"
	join     = "j"
	leave    = "l"
)

// desk is a market's desk, for the board's methods.
type desk struct{ *trading.Desk }

func (d desk) boardPrefix() string { return d.Name + "t:" }

var errNoPortfolio = errors.New("no portfolio")

// Command is /<market>_top: the board of the group it is asked in, or,
// in a private chat, of the users who opted in, with the asker's rank
// among them; "join" and "leave" opt in and out.
func Command(dk *trading.Desk) func(context.Context, *app.Request) error {
	return desk{dk}.command
}

func (d desk) command(ctx context.Context, r *app.Request) error {
	switch arg := strings.ToLower(strings.TrimSpace(r.Args)); arg {
	case "":
	case "join", "leave":
		msg, err := d.setListed(ctx, r.UserID, trading.SenderName(r), arg == "join")
		if err != nil {
			return err
		}
		_, err = r.Reply(ctx, msg)
		return err
	default:
		_, err := r.Reply(ctx, fmt.Sprintf("Usage: /%s_top, or /%s_top join to be on the board private chats show (/%s_top leave to leave it).", d.Name, d.Name, d.Name))
		return err
	}
	text, kb, err := d.board(ctx, r.ChatID, r.Private, r.UserID, byValue, 0)
	if err != nil {
		return err
	}
	_, err = r.ReplyKeyboard(ctx, text, kb)
	return err
}

// Callback handles the board's buttons.
func Callback(dk *trading.Desk) app.Callback {
	d := desk{dk}
	return app.Callback{Prefix: d.boardPrefix(), Handler: func(ctx context.Context, req *app.CallbackRequest) error {
		data, err := app.ParseCallback(d.boardPrefix(), req.Data, 1, 2)
		if err != nil {
			return req.Answer(ctx, app.StaleButtonToast)
		}
		private := req.ChatID > 0 // Telegram's private chats are the users' positive ids
		order, page := data.Fields[0], int64(0)
		switch {
		case (order == join || order == leave) && len(data.Fields) == 1 && private:
			var name string
			if req.Query != nil {
				name = trading.UserName(&req.Query.From)
			}
			msg, err := d.setListed(ctx, req.UserID, name, order == join)
			if err != nil {
				return err
			}
			if err := req.Answer(ctx, msg); err != nil {
				return err
			}
			order = byValue
		case (order == byValue || order == byChange) && len(data.Fields) == 2:
			if page, err = data.Int(1); err != nil || page > 1000 {
				return req.Answer(ctx, app.StaleButtonToast)
			}
		default:
			return req.Answer(ctx, app.StaleButtonToast)
		}
		text, kb, err := d.board(ctx, req.ChatID, private, req.UserID, order, int(page))
		if err != nil {
			return err
		}
		return req.Edit(ctx, text, kb)
	}}
}

// setListed puts the user's portfolio on the opted-in board or takes it
// off, under the name given (when known), and says so.
func (d desk) setListed(ctx context.Context, user int64, name string, listed bool) (string, error) {
	err := storage.UpdateJSON(ctx, d.Quotes.Store, trading.Key(user), func(p *trading.Portfolio, found bool) (bool, error) {
		if !found {
			return false, errNoPortfolio
		}
		changed := p.Listed != listed || (name != "" && p.Name != name)
		p.Listed = listed
		if name != "" {
			p.Name = name
		}
		return changed, nil
	})
	switch {
	case errors.Is(err, errNoPortfolio):
		return fmt.Sprintf("No %s portfolio yet. Start with /%s_topup %s.", d.Name, d.Name, d.Start), nil
	case err != nil:
		return "", err
	case listed:
		return fmt.Sprintf("You are on the %s board: anyone's /%s_top in a private chat shows your name, value and 7-day change. /%s_top leave takes you off.", d.Name, d.Name, d.Name), nil
	}
	return fmt.Sprintf("You are off the %s board private chats show (a group's board still shows who traded there).", d.Name), nil
}

// board renders a board in order (byValue or byChange) at page.
func (d desk) board(ctx context.Context, chat int64, private bool, asker int64, order string, page int) (string, *models.InlineKeyboardMarkup, error) {
	scope := chat
	if private {
		scope = trading.Everyone
	}
	prices := trading.OncePerSymbol(d.Quotes.Known(ctx))
	now := d.Quotes.Now()
	rows, err := trading.Board(ctx, d.Quotes.Store, d.Market, prices, scope, now)
	if err != nil {
		return "", nil, err
	}
	listed := slices.ContainsFunc(rows, func(r trading.Row) bool { return r.User == asker })
	var outsider *trading.Row // the asker of a private board they are not on
	if private && !listed {
		me, found, err := trading.RowOf(ctx, d.Quotes.Store, d.Market, prices, asker, now)
		if err != nil {
			return "", nil, err
		}
		if found {
			outsider = &me
		}
	}
	if len(rows) == 0 && outsider == nil {
		if private {
			return fmt.Sprintf("No %s portfolio yet. Start with /%s_topup %s.", d.Name, d.Name, d.Start), nil, nil
		}
		return fmt.Sprintf("No one has traded %s in this group yet: a /%s_buy here puts you on its board.", d.Name, d.Name), nil, nil
	}
	sortRows := trading.SortByValue
	if order == byChange {
		sortRows = trading.SortByChange
	}
	sortRows(rows)
	var b strings.Builder
	what, how, count := "This group's", "by value", fmt.Sprintf("%d members", len(rows))
	if private {
		what = "The opted-in"
	}
	if order == byChange {
		how = fmt.Sprintf("by %d-day change", trading.ChangeDays)
	}
	switch len(rows) {
	case 0:
		count = "no one yet"
	case 1:
		count = "1 member"
	}
	fmt.Fprintf(&b, "🏆 %s %s board, %s: %s\n", what, d.Name, how, count)
	first, last, pages := 0, len(rows), 1
	if len(rows) > boardWhole {
		pages = (len(rows) + boardPage - 1) / boardPage
		page = min(max(page, 0), pages-1)
		first, last = page*boardPage, min(len(rows), (page+1)*boardPage)
	} else {
		page = 0
	}
	mine := slices.IndexFunc(rows, func(r trading.Row) bool { return r.User == asker })
	for i := first; i < last; i++ {
		b.WriteString(d.boardLine(i+1, rows[i], i == mine))
	}
	if mine >= 0 && (mine < first || mine >= last) {
		b.WriteString("…\n" + d.boardLine(mine+1, rows[mine], true))
	}
	if outsider != nil {
		// Where the asker would rank, among the members and not one of
		// them: the board's count and ranks are its members' alone.
		b.WriteString(d.outsiderLine(wouldRank(rows, *outsider, sortRows), *outsider))
	}
	switch {
	case outsider != nil:
		fmt.Fprintf(&b, "You are not on this board (only you see your line): /%s_top join puts you on it.\n", d.Name)
	case private && !listed:
		fmt.Fprintf(&b, "No %s portfolio yet. Start with /%s_topup %s.\n", d.Name, d.Name, d.Start)
	}
	return strings.TrimSuffix(b.String(), "\n"), d.boardKeyboard(order, page, pages, private, listed), nil
}

func (d desk) boardKeyboard(order string, page, pages int, private, listed bool) *models.InlineKeyboardMarkup {
	other, label := byChange, fmt.Sprintf("📊 By %d-day change", trading.ChangeDays)
	if order == byChange {
		other, label = byValue, "💰 By value"
	}
	var nav []app.Button
	if page > 0 {
		nav = append(nav, app.Button{Text: "◀ Previous", Data: app.Data(d.boardPrefix(), order, strconv.Itoa(page-1))})
	}
	if page+1 < pages {
		nav = append(nav, app.Button{Text: "Next ▶", Data: app.Data(d.boardPrefix(), order, strconv.Itoa(page+1))})
	}
	rows := [][]app.Button{{{Text: label, Data: app.Data(d.boardPrefix(), other, "0")}}}
	if len(nav) > 0 {
		rows = append(rows, nav)
	}
	if private {
		b := app.Button{Text: "✅ Join the board", Data: app.Data(d.boardPrefix(), join)}
		if listed {
			b = app.Button{Text: "Leave the board", Data: app.Data(d.boardPrefix(), leave)}
		}
		rows = append(rows, []app.Button{b})
	}
	// The data is a short prefix, a letter and a page number: a test
	// covers the longest.
	return app.MustKeyboard(rows...)
}
