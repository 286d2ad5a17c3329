package loldle

import (
	"context"
	"errors"
	"strconv"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/storage"
)

// Attempts: the owner picks the limit within these bounds.
const (
	defaultMax = 8
	lowestMax  = 1
	highestMax = 10
)

// settings is the module-wide configuration the owner changes.
type settings struct {
	Max int `json:"max"`
}

const settingsKey = "settings"

// maxAttempts is the limit new games get.
func (m *module) maxAttempts(ctx context.Context) (int, error) {
	var s settings
	err := m.store.GetJSON(ctx, settingsKey, &s)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return defaultMax, nil
	case err != nil:
		return 0, err
	case s.Max < lowestMax || s.Max > highestMax:
		return defaultMax, nil
	}
	return s.Max, nil
}

func (m *module) cmdSetMax(ctx context.Context, r *app.Request) error {
	n, err := strconv.Atoi(r.Args)
	if err != nil || n < lowestMax || n > highestMax {
		cur, err := m.maxAttempts(ctx)
		if err != nil {
			return err
		}
		_, err = r.Reply(ctx, r.T("setmax_usage", app.Args{"Low": lowestMax, "High": highestMax, "Now": cur}))
		return err
	}
	if err := m.store.PutJSON(ctx, settingsKey, settings{Max: n}); err != nil {
		return err
	}
	_, err = r.Reply(ctx, r.T("setmax_done", app.Args{"Count": n}))
	return err
}
