// Package boards is a market's /<market>_top: the board of a group, or of
// the users who opted in, and its buttons.
package boards

import (
	"context"
	"errors"
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
		msg, err := d.setListed(ctx, r.Words, r.UserID, trading.SenderName(r.Sender), arg == "join")
		if err != nil {
			return err
		}
		_, err = r.Reply(ctx, msg)
		return err
	default:
		_, err := r.Reply(ctx, r.T("trading.board.usage", app.Args{"Name": d.Name}))
		return err
	}
	text, kb, err := d.board(ctx, r.Words, r.ChatID, r.Private, r.UserID, byValue, 0)
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
			return req.Answer(ctx, req.T(app.StaleButton))
		}
		private := req.ChatID > 0 // Telegram's private chats are the users' positive ids
		order, page := data.Fields[0], int64(0)
		switch {
		case (order == join || order == leave) && len(data.Fields) == 1 && private:
			msg, err := d.setListed(ctx, req.Words, req.UserID, trading.SenderName(req.Sender), order == join)
			if err != nil {
				return err
			}
			if err := req.Answer(ctx, msg); err != nil {
				return err
			}
			order = byValue
		case (order == byValue || order == byChange) && len(data.Fields) == 2:
			if page, err = data.Int(1); err != nil || page > 1000 {
				return req.Answer(ctx, req.T(app.StaleButton))
			}
		default:
			return req.Answer(ctx, req.T(app.StaleButton))
		}
		text, kb, err := d.board(ctx, req.Words, req.ChatID, private, req.UserID, order, int(page))
		if err != nil {
			return err
		}
		return req.Edit(ctx, text, kb)
	}}
}

// setListed puts the user's portfolio on the opted-in board or takes it
// off, under the name given (when known), and says so in w's language.
func (d desk) setListed(ctx context.Context, w app.Words, user int64, name string, listed bool) (string, error) {
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
		return d.NoPortfolio(w), nil
	case err != nil:
		return "", err
	case listed:
		return w.T("trading.board.joined", app.Args{"Name": d.Name, "Market": w.T("noun"), "Days": trading.ChangeDays}), nil
	}
	return w.T("trading.board.left", app.Args{"Market": w.T("noun")}), nil
}

// board renders a board in order (byValue or byChange) at page, in w's
// language.
func (d desk) board(ctx context.Context, w app.Words, chat int64, private bool, asker int64, order string, page int) (string, *models.InlineKeyboardMarkup, error) {
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
			return d.NoPortfolio(w), nil, nil
		}
		return w.T("trading.board.none_here", app.Args{"Name": d.Name, "Market": w.T("noun")}), nil, nil
	}
	sortRows := trading.SortByValue
	if order == byChange {
		sortRows = trading.SortByChange
	}
	sortRows(rows)
	var b strings.Builder
	title, how, count := "trading.board.title_group", w.T("trading.board.how_value"), w.T("trading.board.members", app.Args{"Count": len(rows)})
	if private {
		title = "trading.board.title_opted_in"
	}
	if order == byChange {
		how = w.T("trading.board.how_change", app.Args{"Days": trading.ChangeDays})
	}
	if len(rows) == 0 {
		count = w.T("trading.board.no_one")
	}
	b.WriteString(w.T(title, app.Args{"Market": w.T("noun"), "How": how, "Members": count}) + "\n")
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
		b.WriteString(d.boardLine(w, i+1, rows[i], i == mine))
	}
	if mine >= 0 && (mine < first || mine >= last) {
		b.WriteString("…\n" + d.boardLine(w, mine+1, rows[mine], true))
	}
	if outsider != nil {
		// Where the asker would rank, among the members and not one of
		// them: the board's count and ranks are its members' alone.
		rank := ordinal(w.Lang, wouldRank(rows, *outsider, sortRows))
		b.WriteString(w.T("trading.board.would_be", app.Args{"Rank": rank, "Figures": d.figures(w, *outsider)}) + "\n")
	}
	switch {
	case outsider != nil:
		b.WriteString(w.T("trading.board.not_on", app.Args{"Name": d.Name}) + "\n")
	case private && !listed:
		b.WriteString(d.NoPortfolio(w) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), d.boardKeyboard(w, order, page, pages, private, listed), nil
}

func (d desk) boardKeyboard(w app.Words, order string, page, pages int, private, listed bool) *models.InlineKeyboardMarkup {
	other, label := byChange, w.T("trading.board.by_change", app.Args{"Days": trading.ChangeDays})
	if order == byChange {
		other, label = byValue, w.T("trading.board.by_value")
	}
	var nav []app.Button
	if page > 0 {
		nav = append(nav, app.Button{Text: w.T("trading.board.previous"), Data: app.Data(d.boardPrefix(), order, strconv.Itoa(page-1))})
	}
	if page+1 < pages {
		nav = append(nav, app.Button{Text: w.T("trading.board.next"), Data: app.Data(d.boardPrefix(), order, strconv.Itoa(page+1))})
	}
	rows := [][]app.Button{{{Text: label, Data: app.Data(d.boardPrefix(), other, "0")}}}
	if len(nav) > 0 {
		rows = append(rows, nav)
	}
	if private {
		b := app.Button{Text: w.T("trading.board.join"), Data: app.Data(d.boardPrefix(), join)}
		if listed {
			b = app.Button{Text: w.T("trading.board.leave"), Data: app.Data(d.boardPrefix(), leave)}
		}
		rows = append(rows, []app.Button{b})
	}
	// The data is a short prefix, a letter and a page number: a test
	// covers the longest.
	return app.MustKeyboard(rows...)
}
