package storage

import "context"

// HealthReporter is a provider that knows of failures its reads do not
// show: the embedded file's writes failing on a full disk while every
// read still answers.
type HealthReporter interface {
	Healthy(ctx context.Context) error
}

// Healthy asks p for its report; a provider without one has nothing to
// add to what its calls return (nil).
func Healthy(ctx context.Context, p KVProvider) error {
	if h, ok := p.(HealthReporter); ok {
		return h.Healthy(ctx)
	}
	return nil
}
