package app

import (
	"context"
	"errors"
	"net/url"
	"time"
)

// WebRoute is a read-only JSON answer a module gives the Mini App (the web
// page Telegram opens inside a chat). The engine mounts it at
// GET /app/api/<module>/<Name>, checks who is asking (Telegram's signed
// initData) and limits how often, so a handler sees only a verified user.
// A route named WebMe is also the module's part of GET /app/api/me.
type WebRoute struct {
	Name    string // ^[a-z0-9_]{1,32}$
	Handler func(ctx context.Context, r *WebRequest) (any, error)
}

// WebMe names the route whose answer is the module's part of /app/api/me:
// what the signed user has in it.
const WebMe = "me"

// WebRequest is a Mini App's request, from a user Telegram vouched for.
type WebRequest struct {
	UserID int64
	// Query is the request's query string, as the page sent it: the user
	// may have typed any of it.
	Query url.Values
	// StartParam is the start parameter of the link that opened the app
	// (a group's id when opened from a group), as given.
	StartParam string
	// Lang is the language the user reads: their private chat's
	// /language choice, else their client's language_code, else English.
	Lang Lang
	// Zone is the clock the user reads: their private chat's /timezone
	// choice, else Vietnam's. Show a time only through it.
	Zone *time.Location
}

// What a WebRoute's handler returns to answer other than 200: the engine
// answers 404 or 403 with no body, so nothing about why leaks.
var (
	ErrWebNotFound  = errors.New("web: not found")
	ErrWebForbidden = errors.New("web: not this user's to see")
)
