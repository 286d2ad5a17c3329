package container

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/miti99bot/miti99bot/internal/wiring"
)

// Console chats on the terminal (in, stdout), with the in-process cron
// running and the Mini App served on PORT (serveMiniApp). However the
// session ends (EOF, ctx's end: Ctrl-C), the pictures it wrote for
// display are removed once the cron has stopped.
func Console(ctx context.Context, b *wiring.Bot, in io.Reader, stdout io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	runCron(ctx, &wg, b)
	stopApp := serveMiniApp(ctx, b, stdout)
	defer stopApp()
	err := b.Console.Run(ctx, in, stdout, b.App.HandleUpdate)
	cancel()
	wg.Wait()
	return errors.Join(err, b.Console.Close())
}
