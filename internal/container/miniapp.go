package container

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/console"
	"github.com/miti99bot/miti99bot/internal/httpapi"
	"github.com/miti99bot/miti99bot/internal/wiring"
)

// serveMiniApp serves the bot's HTTP surface on this machine's PORT while
// the console runs, so the Mini App can be opened in a browser, and prints
// its address and a link signed for the person at the terminal (valid a
// day; the console's token is made per run). A busy port is said and
// skipped: the chat works without the app. The returned func stops it.
func serveMiniApp(ctx context.Context, b *wiring.Bot, stdout io.Writer) func() {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(b.Config.Port))
	if err != nil {
		fmt.Fprintf(stdout, "Mini App: not served (port %d: %v)\n", b.Config.Port, err)
		return func() {}
	}
	base := "http://localhost:" + strconv.Itoa(b.Config.Port)
	fmt.Fprintf(stdout, "Mini App: %s/app/ (it answers 401 without Telegram's signature)\n", base)
	fmt.Fprintf(stdout, "Open it as you, the owner: %s\n", b.MiniAppTestLink(base, console.UserID, "You"))
	srv := httpapi.NewServer(b.HTTP)
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			b.Log.Warn("mini app server stopped", "err", err)
		}
	}()
	return func() { _ = srv.Shutdown(context.WithoutCancel(ctx)) }
}
