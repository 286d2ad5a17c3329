package core

import (
	"errors"

	"github.com/miti99bot/miti99bot/internal/app"
)

// permanentClass names the class of a permanent error, for the log.
func permanentClass(err error) string {
	for _, c := range []struct {
		err  error
		name string
	}{{app.ErrBlocked, "blocked"}, {app.ErrChatNotFound, "chat_not_found"}, {app.ErrThreadNotFound, "thread_not_found"}, {app.ErrRejected, "rejected"}} {
		if errors.Is(err, c.err) {
			return c.name
		}
	}
	return ""
}
