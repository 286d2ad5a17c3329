package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// menuLabel is the menu button's label.
const menuLabel = "Portfolio"

// menuSet makes the menu button of every private chat open the Mini App,
// at the URL given or APP_URL.
func menuSet(ctx context.Context, e env) error {
	args, err := e.parse(e.flags())
	if err != nil {
		return err
	}
	if len(args) > 1 {
		return errors.New("usage: " + synopsis(e.name))
	}
	cfg, c, err := e.connect(ctx)
	if err != nil {
		return err
	}
	target := cfg.AppURL
	if len(args) == 1 {
		target = args[0]
	}
	if u, err := url.Parse(target); target == "" || err != nil || u.Scheme != "https" || u.Host == "" || !strings.HasSuffix(u.Path, "/app/") {
		return fmt.Errorf("menu button URL %q: Telegram opens a Mini App over https only, and the bot serves it at /app/ (give the URL, or set APP_URL)", target)
	}
	if err := c.SetMenuButton(ctx, menuLabel, target); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "menu button %q opens %s\n", menuLabel, target)
	return nil
}
